/**
 * @module What @cfworker/json-schema validates examples against, prepared as Spectral's oasExample prepares
 * schemas: `nullable` (2.0: `x-nullable`) admits null, `readOnly` properties are not required in requests nor
 * `writeOnly` ones in responses, and the lenient formats of ajv-formats. Only the nodes that change are copied
 * (the document is never modified); everything else is the document's own objects, and local `$ref`s resolve
 * through a lookup onto the document, so a component used by a thousand examples costs nothing extra.
 */

import type { OasVersion } from "../types";
import { isObject, isRef } from "../util/is-object";
import { compilePattern } from "../util/linear-pattern";
import { numericFormatPart } from "./openapi-formats";
import { cloneNode, deferPatternProperties, isCheckedFormat, patternFormat } from "./pattern-scope";

/** Which media an example belongs to: Spectral relaxes `required` for request and response bodies. */
export type ExampleMode = "schema" | "request" | "response";

/** Prepared schemas of one document version, for one mode. */
export class PreparedSchemas {
  /** cfworker's lookup: a `$ref` as written (`#/components/schemas/Pet`) → the prepared target. */
  readonly lookup: Record<string, unknown>;
  private readonly done = new Map<object, Record<string, unknown>>();
  private readonly nullable: boolean;

  constructor(
    private readonly version: OasVersion,
    private readonly mode: ExampleMode,
    private readonly resolve: (ref: string) => unknown,
  ) {
    // ajv (Spectral's validator) honours `nullable` whatever the version, so 3.1 documents keeping it validate alike.
    this.nullable = true;
    const refs = new Map<string, unknown>();
    this.lookup = new Proxy(Object.create(null) as Record<string, unknown>, {
      get: (_target, key) => {
        if (typeof key !== "string") return undefined;
        if (!refs.has(key)) {
          const target = this.resolve(key);
          refs.set(key, isObject(target) ? this.prepare(target) : undefined);
        }
        return refs.get(key);
      },
    });
  }

  /**
   * ajv refuses to compile a schema with `nullable: true` and no `type` anywhere in what it reaches, and Spectral
   * reports that compile error in place of validating the example. Memoised per schema node; cycle-safe.
   */
  nullableWithoutType(schema: Record<string, unknown>): boolean {
    const memo = this.badNullable;
    const visit = (node: unknown): boolean => {
      if (Array.isArray(node)) return node.some(visit);
      if (!isObject(node)) return false;
      if (isRef(node)) {
        const target = this.resolve(node.$ref);
        return isObject(target) ? visit(target) : false;
      }
      const hit = memo.get(node);
      if (hit !== undefined) return hit;
      memo.set(node, false); // in progress: a cycle adds nothing
      const nullable = node.nullable === true || (this.version === "2.0" && node["x-nullable"] === true);
      let bad = nullable && node.type === undefined;
      for (const key of Object.keys(node)) {
        if (bad) break;
        if (DATA_VALUES.has(key)) continue;
        const value = node[key];
        if (MAPS.has(key) && isObject(value)) bad = Object.values(value).some(visit);
        else if (typeof value === "object" && value !== null) bad = visit(value);
      }
      memo.set(node, bad);
      return bad;
    };
    return visit(schema);
  }

  private readonly badNullable = new Map<object, boolean>();

  /** `schema` (a node of the document) as validation needs it; the same object when nothing changes. */
  prepare(schema: Record<string, unknown>): Record<string, unknown> {
    let out = this.done.get(schema);
    if (!out) {
      out = this.transform(schema, false) as Record<string, unknown>;
      if (this.version === "2.0" && typeof schema.required === "boolean") {
        out = cloneNode(out); // keeps the pattern getters (a spread would freeze them outside any example)
        delete out.required;
      }
      this.done.set(schema, out);
    }
    return out;
  }

  private transform(node: unknown, inNot: boolean): unknown {
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((item, i) => {
        const next = this.transform(item, inNot);
        if (next !== item) (copy ??= [...node])[i] = next;
      });
      return copy ?? node;
    }
    // A `$ref` is kept as is, unless a 3.1 sibling `pattern` would reach cfworker beside it.
    if (!isObject(node) || (isRef(node) && node.pattern === undefined && node.patternProperties === undefined)) return node;
    let copy: Record<string, unknown> | undefined;
    const set = (key: string, value: unknown) => ((copy ??= { ...node })[key] = value);
    for (const key of Object.keys(node)) {
      if (DATA_VALUES.has(key)) continue;
      const value = node[key];
      if (MAPS.has(key) && isObject(value)) {
        let map: Record<string, unknown> | undefined;
        for (const name of Object.keys(value)) {
          const next = this.transform(value[name], inNot);
          if (next !== value[name]) (map ??= { ...value })[name] = next;
        }
        if (map) set(key, map);
      } else if (typeof value === "object" && value !== null) {
        const next = this.transform(value, inNot || key === "not");
        if (next !== value) set(key, next);
      }
    }
    const type = node.type;
    if (this.version === "3.1" || this.version === "3.2") {
      // Draft-04 booleans in a 2020-12 schema: read them as draft 4 meant them rather than compare with `true`.
      for (const [exclusive, limit] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
        if (typeof node[exclusive] !== "boolean") continue;
        copy ??= { ...node };
        if (node[exclusive] === true && typeof node[limit] === "number") {
          copy[exclusive] = node[limit];
          delete copy[limit];
        } else delete copy[exclusive];
      }
    }
    if (typeof node.format === "string" && LENIENT_FORMATS.has(node.format)) set("format", `portico-unchecked:${node.format}`);
    const numeric = numericFormatPart(node.format);
    if (numeric) {
      const allOf = (copy ?? node).allOf;
      set("allOf", [...(Array.isArray(allOf) ? allOf : []), numeric]);
    }
    if (this.nullable && typeof type === "string" && (node.nullable === true || (this.version === "2.0" && node["x-nullable"] === true))) set("type", [type, "null"]);
    if (this.mode !== "schema" && !inNot && Array.isArray(node.required) && isObject(node.properties)) {
      const kept = this.relaxed(node.required, node.properties);
      if (kept.length !== node.required.length) {
        if (kept.length) set("required", kept);
        else {
          copy ??= { ...node };
          delete copy.required;
        }
      }
    }
    return this.deferPatterns(node, copy);
  }

  /**
   * `pattern` and `patternProperties` never reach cfworker as written (it would run them on RegExp, a
   * backtracking engine): supported ones become a format checked on the linear-time matcher and per-example
   * stand-ins (see pattern-scope.ts); those the matcher cannot run are left out (`pattern-not-checked` says so).
   */
  private deferPatterns(node: Record<string, unknown>, copy: Record<string, unknown> | undefined): Record<string, unknown> {
    const hasPattern = node.pattern !== undefined;
    const hasPatternProps = isObject(node.patternProperties);
    if (!hasPattern && !hasPatternProps) return copy ?? node;
    const out = copy ?? { ...node };
    if (hasPatternProps) {
      const entries = Object.entries(out.patternProperties as Record<string, unknown>).filter(([p]) => compilePattern(p).ok);
      delete out.patternProperties;
      if (entries.length > 0) deferPatternProperties(out, entries);
    }
    if (hasPattern) {
      const pattern = node.pattern;
      delete out.pattern; // whatever its type: nothing of a definition's reaches cfworker's RegExp
      if (typeof pattern === "string" && compilePattern(pattern).ok) {
        // A format cfworker checks stays; the pattern's check then joins as an allOf part of its own.
        const check = patternFormat(pattern);
        if (isCheckedFormat(out.format)) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { format: check }];
        else out.format = check;
      }
    }
    return out;
  }

  /** `required` without `readOnly` (request) or `writeOnly` (response) properties. */
  private relaxed(required: unknown[], props: Record<string, unknown>): unknown[] {
    const flag = this.mode === "request" ? "readOnly" : "writeOnly";
    return required.filter((name) => {
      const prop = props[name as string];
      const resolved = isRef(prop) ? this.resolve(prop.$ref) : prop;
      return !(isObject(resolved) && resolved[flag] === true);
    });
  }
}

const DATA_VALUES = new Set(["enum", "const", "default", "example", "examples", "x-example"]);
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * Formats @cfworker/json-schema checks more strictly than ajv-formats (which Spectral uses): `time` without a
 * time zone is valid for ajv. Renamed so that cfworker ignores them rather than reporting false errors.
 */
const LENIENT_FORMATS = new Set(["time"]);
