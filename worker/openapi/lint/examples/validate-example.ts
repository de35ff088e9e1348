/**
 * @module Validates one example value against its schema with @cfworker/json-schema (no code generation, so it
 * runs in Workers), a validator compiled once per schema and mode, and reports like Spectral's `schema`
 * function: the first failure (ajv without allErrors), in better-ajv-errors' words.
 */

import { Validator, type OutputUnit } from "@cfworker/json-schema";
import type { NodeContext, Segment } from "../rule";
import { isObject } from "../util/is-object";
import { prepareSchema, type ExampleMode, type PreparedSchema } from "./prepare-schema";
import { describeErrors, type AjvLikeError } from "./describe-errors";

export interface ExampleFinding {
  message: string;
  path: Segment[];
}

interface Compiled {
  prepared: PreparedSchema;
  validator: Validator | null;
}

/**
 * Spectral leaves a `$ref` cycle unresolved and then cannot compile the schema, so it silently skips examples
 * of recursive schemas. Portico validates them (see docs/lint.md, "Examples of recursive schemas").
 */
export const VALIDATE_RECURSIVE_SCHEMAS = true;

/**
 * Findings for `value` (at `path`) against `schema`. `propertyName` names the example in messages
 * (`"example" property type must be integer`).
 */
export function validateExample(value: unknown, schema: Record<string, unknown>, path: readonly Segment[], mode: ExampleMode, ctx: NodeContext): ExampleFinding[] {
  const compiled = compile(schema, mode, ctx);
  if (!compiled.validator) return [];
  let result: { valid: boolean; errors: OutputUnit[] };
  try {
    result = compiled.validator.validate(value);
  } catch {
    return []; // e.g. a reference the preparation could not resolve: Spectral reports nothing either
  }
  if (result.valid) return [];
  const errors = firstFailure(toAjvErrors(result.errors, value, (location) => schemaAt(compiled.prepared, location)));
  return describeErrors(errors, value, path);
}

function compile(schema: Record<string, unknown>, mode: ExampleMode, ctx: NodeContext): Compiled {
  const store = ctx.store as WeakMap<object, Partial<Record<ExampleMode, Compiled>>>;
  let byMode = store.get(schema);
  const hit = byMode?.[mode];
  if (hit && depsHold(hit.prepared, ctx)) return hit;
  const prepared = prepareSchema(schema, ctx.version, mode, (ref) => lookup(ref, ctx));
  let validator: Validator | null = null;
  if (!prepared.incomplete || VALIDATE_RECURSIVE_SCHEMAS) {
    try {
      validator = new Validator(prepared.root, ctx.version === "3.1" || ctx.version === "3.2" ? "2020-12" : "4", true);
      for (const [id, s] of prepared.referenced) validator.addSchema(s, id);
    } catch {
      validator = null;
    }
  }
  if (prepared.incomplete && !prepared.deps.size) validator = null;
  const compiled = { prepared, validator };
  if (!byMode) store.set(schema, (byMode = {}));
  byMode[mode] = compiled;
  return compiled;
}

function lookup(ref: string, ctx: NodeContext): unknown {
  const probe = { $ref: ref };
  const value = ctx.resolve(probe);
  return value === probe ? undefined : value;
}

function depsHold(prepared: PreparedSchema, ctx: NodeContext): boolean {
  for (const [ref, target] of prepared.deps) if (lookup(ref, ctx) !== target) return false;
  return true;
}

/** cfworker's output (wrappers and leaves) → the leaf errors ajv would have produced, with ajv's messages. */
/**
 * ajv without allErrors stops at the first failing keyword; a failing anyOf/oneOf brings its branches' errors.
 * cfworker's short-circuit reports a little more, so keep what ajv would have.
 */
function firstFailure(errors: AjvLikeError[]): AjvLikeError[] {
  const first = errors[0];
  if (!first) return errors;
  if (first.keyword !== "anyOf" && first.keyword !== "oneOf") return [first];
  const scope = first.location ?? "";
  return errors.filter((e) => e === first || (e.location ?? "").startsWith(scope.replace(/\/(anyOf|oneOf)$/, "/$1/")));
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
function schemaAt(prepared: PreparedSchema, location: string): Record<string, unknown> | undefined {
  const segments = location.replace(/^#\/?/, "").split("/");
  segments.pop();
  let node: unknown = prepared.root;
  for (const raw of segments) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (raw === "$ref" && isObject(node) && typeof node.$ref === "string") {
      node = prepared.referenced.get(node.$ref);
      continue;
    }
    let key = raw;
    try {
      key = decodeURIComponent(raw);
    } catch {
      key = raw;
    }
    key = key.replace(/~1/g, "/").replace(/~0/g, "~");
    node = (node as Record<string, unknown>)[key];
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
