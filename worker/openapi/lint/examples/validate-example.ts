/**
 * @module Validates one example value against its schema with @cfworker/json-schema (no code generation, so it
 * runs in Workers; schemas prepared once per document version), and reports like Spectral's `schema` function:
 * the first failure (ajv without allErrors), in better-ajv-errors' words.
 */

import { validate, type OutputUnit } from "@cfworker/json-schema";
import type { NodeContext, Segment } from "../rule";
import type { OasVersion } from "../types";
import { isObject } from "../util/is-object";
import { PreparedSchemas, type ExampleMode } from "./prepare-schema";
import { describeErrors, type AjvLikeError } from "./describe-errors";

export interface ExampleFinding {
  message: string;
  path: Segment[];
}

type Lookup = Record<string, unknown>;

/** Per document version: prepared schemas per mode, and results per example value and prepared schema. */
interface RunCache {
  prepared: Partial<Record<ExampleMode, PreparedSchemas>>;
  results: WeakMap<object, Map<object, AjvLikeError[]>>;
}

const runs = new WeakMap<object, RunCache>();

/**
 * Findings for the example `value` (at `path`) against `schema`, a schema object of the document (already
 * resolved if it was a `$ref`). Spectral leaves `$ref` cycles unresolved and then silently skips examples of
 * recursive schemas; Portico validates them (docs/lint.md).
 */
export function validateExample(value: unknown, schema: Record<string, unknown>, path: readonly Segment[], mode: ExampleMode, ctx: NodeContext): ExampleFinding[] {
  let run = runs.get(ctx.root);
  if (!run) runs.set(ctx.root, (run = { prepared: {}, results: new WeakMap() }));
  const prepared = (run.prepared[mode] ??= new PreparedSchemas(ctx.version, mode, (ref) => lookupRef(ref, ctx)));
  if (prepared.nullableWithoutType(schema)) return [{ message: '"nullable" cannot be used without "type"', path: [...path] }];
  const root = prepared.prepare(schema);
  const cacheable = typeof value === "object" && value !== null;
  let errors = cacheable ? run.results.get(value)?.get(root) : undefined;
  if (!errors) {
    errors = check(value, root, prepared.lookup, ctx.version);
    if (cacheable) {
      let bySchema = run.results.get(value);
      if (!bySchema) run.results.set(value, (bySchema = new Map()));
      bySchema.set(root, errors);
    }
  }
  return errors.length ? describeErrors(errors, value, path) : [];
}

function check(value: unknown, root: Record<string, unknown>, lookup: Lookup, version: OasVersion): AjvLikeError[] {
  const draft = version === "3.1" || version === "3.2" ? "2020-12" : "4";
  let result: { valid: boolean; errors: OutputUnit[] };
  try {
    // Most examples are valid: a short-circuiting pass first, all errors only to pick ajv's first one.
    result = validate(value, root, draft, lookup as never, true);
    if (result.valid) return [];
    result = validate(value, root, draft, lookup as never, false);
  } catch {
    return []; // an unresolvable reference: Spectral cannot compile the schema and reports nothing either
  }
  if (result.valid) return [];
  return firstFailure(toAjvErrors(result.errors, value, (location) => schemaAt(lookup, root, location)), lookup, root);
}

function lookupRef(ref: string, ctx: NodeContext): unknown {
  const probe = { $ref: ref };
  const value = ctx.resolve(probe);
  return value === probe ? undefined : value;
}

/**
 * ajv without allErrors stops at the first failing keyword, in its own keyword order; cfworker (run with all
 * errors) finds them all. Keep what ajv would have reported: the first leaf in ajv's order, the `if` errors
 * around it, and when it sits in a failing anyOf/oneOf, that combinator with all its branches' errors.
 */
function firstFailure(errors: AjvLikeError[], lookup: Lookup, root: Record<string, unknown>): AjvLikeError[] {
  const leaves = errors.filter((e) => !WRAPPERS.has(e.keyword));
  if (!leaves.length) return errors.slice(0, 1);
  const ranked = leaves.map((e, i) => ({ e, i, key: ajvOrder(e.location ?? "", lookup, root) }));
  ranked.sort((a, b) => compareKeys(a.key, b.key) || a.i - b.i);
  const first = ranked[0].e;
  const at = first.location ?? "";
  const combinators = errors.filter((e) => (e.keyword === "anyOf" || e.keyword === "oneOf") && at.startsWith(`${e.location}/`));
  combinators.sort((a, b) => (a.location ?? "").length - (b.location ?? "").length);
  const outer = combinators[0];
  const scope = outer ? `${outer.location}/` : at;
  const kept = outer ? errors.filter((e) => e === outer || (e.location ?? "").startsWith(scope)) : [first];
  const ifs = errors.filter((e) => e.keyword === "if" && scope.startsWith(`${(e.location ?? "").replace(/\/if$/, "")}/`) && !kept.includes(e));
  return [...kept, ...ifs.reverse()];
}

const WRAPPERS = new Set(["if", "anyOf", "oneOf", "propertyNames"]);

/** ajv's evaluation order of keywords within one schema (type first, then its rule groups). */
const AJV_RANK: Record<string, number> = {
  type: 0, $ref: 1, $dynamicRef: 2, $recursiveRef: 2, const: 3, enum: 4, not: 5, anyOf: 6, oneOf: 7, allOf: 8, if: 9, then: 9, else: 9,
  maximum: 20, minimum: 21, exclusiveMaximum: 22, exclusiveMinimum: 23, multipleOf: 24,
  maxLength: 30, minLength: 31, pattern: 32, format: 33,
  maxItems: 40, minItems: 41, uniqueItems: 42, additionalItems: 43, prefixItems: 44, items: 45, contains: 46, minContains: 47, maxContains: 48, unevaluatedItems: 49,
  maxProperties: 50, minProperties: 51, required: 52, dependencies: 53, propertyNames: 54, additionalProperties: 55, properties: 56, patternProperties: 57, dependentRequired: 58, dependentSchemas: 59, unevaluatedProperties: 60,
};

/** A sort key for a keywordLocation: keyword ranks, and positions of property names / indexes in the schema. */
function ajvOrder(location: string, lookup: Lookup, root: Record<string, unknown>): number[] {
  const key: number[] = [];
  let node: unknown = root;
  let container: string | undefined;
  for (const raw of location.replace(/^#\/?/, "").split("/")) {
    const segment = decodeSegment(raw);
    if (container === "properties" || container === "patternProperties" || container === "dependentSchemas") {
      key.push(isObject(node) ? Object.keys(node).indexOf(segment) : 0);
      node = isObject(node) ? node[segment] : undefined;
      container = undefined;
      continue;
    }
    if (/^\d+$/.test(segment) && Array.isArray(node)) {
      key.push(Number(segment));
      node = node[Number(segment)];
      continue;
    }
    key.push(AJV_RANK[segment] ?? 100);
    if (segment === "$ref" && isObject(node) && typeof node.$ref === "string") node = lookup[node.$ref];
    else node = isObject(node) ? node[segment] : undefined;
    container = segment;
  }
  return key;
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function decodeSegment(raw: string): string {
  let key = raw;
  try {
    key = decodeURIComponent(raw);
  } catch {
    key = raw;
  }
  return key.replace(/~1/g, "/").replace(/~0/g, "~");
}

function toAjvErrors(units: readonly OutputUnit[], value: unknown, schemaOf: (keywordLocation: string) => Record<string, unknown> | undefined): AjvLikeError[] {
  const out: AjvLikeError[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i];
    const instancePath = decodeLocation(u.instanceLocation, value);
    const next = units[i + 1];
    switch (u.keyword) {
      case "additionalProperties":
      case "unevaluatedProperties": {
        // A wrapper; followed by a "false" leaf when the schema forbids the property outright.
        const key = /^Property "(.*)" does not match/.exec(u.error)?.[1];
        if (next?.keyword === "false" && key !== undefined) {
          i++;
          out.push(
            u.keyword === "additionalProperties"
              ? { location: u.keywordLocation, keyword: u.keyword, instancePath, message: "must NOT have additional properties", params: { additionalProperty: key } }
              : { location: u.keywordLocation, keyword: u.keyword, instancePath, message: "must NOT have unevaluated properties", params: { unevaluatedProperty: key } },
          );
        }
        break;
      }
      case "items": {
        // `items: false` after `prefixItems`: ajv words it as a length limit on the array.
        const schema = schemaOf(u.keywordLocation);
        if (next?.keyword === "false" && schema && Array.isArray(schema.prefixItems)) {
          while (units[i + 1]?.keyword === "false") i++;
          out.push({ location: u.keywordLocation, keyword: "items", instancePath, message: `must NOT have more than ${schema.prefixItems.length} items`, params: {} });
        }
        break;
      }
      case "if": {
        const branch = /"(then|else)"/.exec(u.error)?.[1] ?? "then";
        out.push({ location: u.keywordLocation, keyword: "if", instancePath, message: `must match "${branch}" schema`, params: { failingKeyword: branch } });
        break;
      }
      case "false":
        out.push({ location: u.keywordLocation, keyword: "false schema", instancePath, message: "boolean schema is false", params: {} });
        break;
      case "type": {
        const expected = /Expected (.*)\.$/.exec(u.error)?.[1] ?? "";
        const types = [...expected.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
        out.push({ location: u.keywordLocation, keyword: "type", instancePath, message: `must be ${types.join(",")}`, params: { type: types } });
        break;
      }
      case "enum": {
        let allowed: unknown[] = [];
        try {
          allowed = JSON.parse(/^Instance does not match any of (.*)\.$/s.exec(u.error)?.[1] ?? "[]") as unknown[];
        } catch {
          allowed = [];
        }
        out.push({ location: u.keywordLocation, keyword: "enum", instancePath, message: "must be equal to one of the allowed values", params: { allowedValues: allowed } });
        break;
      }
      case "const":
        out.push({ location: u.keywordLocation, keyword: "const", instancePath, message: "must be equal to constant", params: {} });
        break;
      case "required": {
        const key = /required property "(.*)"\.$/.exec(u.error)?.[1] ?? "";
        out.push({ location: u.keywordLocation, keyword: "required", instancePath, message: `must have required property '${key}'`, params: { missingProperty: key } });
        break;
      }
      case "format": {
        const format = /format "(.*)"\.$/.exec(u.error)?.[1] ?? "";
        out.push({ location: u.keywordLocation, keyword: "format", instancePath, message: `must match format "${format}"`, params: { format } });
        break;
      }
      case "oneOf":
      case "anyOf": {
        const matches = Number(/\((\d+) matches\)/.exec(u.error)?.[1] ?? "0");
        const message = u.keyword === "oneOf" ? "must match exactly one schema in oneOf" : "must match a schema in anyOf";
        out.push({ location: u.keywordLocation, keyword: u.keyword, instancePath, message, params: {}, matched: matches > 0 });
        break;
      }
      default: {
        const schema = schemaOf(u.keywordLocation);
        const message = schema ? leafMessage(u.keyword, schema) : undefined;
        if (message !== undefined) out.push({ location: u.keywordLocation, keyword: u.keyword, instancePath, message, params: {} });
      }
    }
  }
  return out;
}

/** ajv's wording for the remaining leaf keywords, from the schema that failed. */
function leafMessage(keyword: string, s: Record<string, unknown>): string | undefined {
  const limit = (k: string) => String(s[k]);
  switch (keyword) {
    case "not":
      return "must NOT be valid";
    case "minProperties":
      return `must NOT have fewer than ${limit(keyword)} properties`;
    case "maxProperties":
      return `must NOT have more than ${limit(keyword)} properties`;
    case "minItems":
      return `must NOT have fewer than ${limit(keyword)} items`;
    case "maxItems":
      return `must NOT have more than ${limit(keyword)} items`;
    case "minLength":
      return `must NOT have fewer than ${limit(keyword)} characters`;
    case "maxLength":
      return `must NOT have more than ${limit(keyword)} characters`;
    case "uniqueItems":
      return "must NOT have duplicate items";
    case "pattern":
      return `must match pattern "${limit("pattern")}"`;
    case "minimum":
      return s.exclusiveMinimum === true ? `must be > ${limit(keyword)}` : `must be >= ${limit(keyword)}`;
    case "maximum":
      return s.exclusiveMaximum === true ? `must be < ${limit(keyword)}` : `must be <= ${limit(keyword)}`;
    case "exclusiveMinimum":
      return `must be > ${limit(keyword)}`;
    case "exclusiveMaximum":
      return `must be < ${limit(keyword)}`;
    case "multipleOf":
      return `must be multiple of ${limit(keyword)}`;
    case "contains":
    case "minContains":
      return `must contain at least ${typeof s.minContains === "number" ? s.minContains : 1} valid item(s)`;
    case "maxContains":
      return `must contain at most ${limit(keyword)} valid item(s)`;
    case "dependentRequired":
    case "dependencies":
      return "must have required dependencies";
    case "propertyNames":
      return "property name must be valid";
    default:
      return undefined;
  }
}

/** The schema object holding the keyword at a cfworker `keywordLocation` (`#/properties/a/$ref/pattern`). */
function schemaAt(lookup: Lookup, root: Record<string, unknown>, location: string): Record<string, unknown> | undefined {
  const segments = location.replace(/^#\/?/, "").split("/");
  segments.pop();
  let node: unknown = root;
  for (const raw of segments) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (raw === "$ref" && isObject(node) && typeof node.$ref === "string") {
      node = lookup[node.$ref];
      continue;
    }
    node = (node as Record<string, unknown>)[decodeSegment(raw)];
  }
  return isObject(node) ? node : undefined;
}

/** `#/a/0/b~1c` → `["a", 0, "b/c"]`, numbers where the instance holds an array. */
function decodeLocation(location: string, value: unknown): Segment[] {
  const path: Segment[] = [];
  if (location === "#" || location === "") return path;
  let node = value;
  for (const raw of location.replace(/^#\/?/, "").split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      segment = raw;
    }
    segment = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(segment)) {
      path.push(Number(segment));
      node = node[Number(segment)];
    } else {
      path.push(segment);
      node = isObject(node) ? node[segment] : undefined;
    }
  }
  return path;
}
