/**
 * @module @cfworker/json-schema's output units → the errors ajv would have produced (keyword, instance path,
 * params, ajv's message), which is what Spectral's wording is built from.
 */

import type { OutputUnit } from "@cfworker/json-schema";
import type { Segment } from "../rule";
import { isObject } from "../util/is-object";
import type { AjvLikeError } from "./describe-errors";
import { FORMAT_MARK } from "./openapi-formats";
import { patternOfFormat } from "./pattern-scope";

type Lookup = Record<string, unknown>;

/** cfworker's output (wrappers and leaves) → the leaf errors ajv would have produced, with ajv's messages. */
export function toAjvErrors(units: readonly OutputUnit[], value: unknown, schemaOf: (keywordLocation: string) => Record<string, unknown> | undefined): AjvLikeError[] {
  const out: AjvLikeError[] = [];
  const formatsReported = new Set<string>();
  for (let i = 0; i < units.length; i++) {
    const u = units[i];
    const instancePath = decodeLocation(u.instanceLocation, value);
    const next = units[i + 1];
    // A numeric format's stand-in part (openapi-formats.ts): one `format` error, as ajv reports it, whichever
    // bound failed; the part's `if` wrapper says nothing more.
    const numeric = u.keywordLocation.includes("/allOf/") ? schemaOf(u.keywordLocation)?.[FORMAT_MARK] : undefined;
    if (typeof numeric === "string") {
      const location = u.keywordLocation.replace(/\/allOf\/\d+(\/then)?\/[^/]+$/, "/format");
      if (u.keyword !== "if" && !formatsReported.has(`${u.instanceLocation} ${location}`)) {
        formatsReported.add(`${u.instanceLocation} ${location}`);
        out.push({ location, keyword: "format", instancePath, message: `must match format "${numeric}"`, params: { format: numeric } });
      }
      continue;
    }
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
        const format = /format "(.*)"\.$/s.exec(u.error)?.[1] ?? "";
        const pattern = patternOfFormat(format);
        if (pattern !== undefined) {
          // A definition's pattern, checked as a format (pattern-scope.ts): reported as ajv reports `pattern`.
          const location = u.keywordLocation.replace(/(\/allOf\/\d+)?\/format$/, "/pattern");
          out.push({ location, keyword: "pattern", instancePath, message: `must match pattern "${pattern}"`, params: { pattern } });
          break;
        }
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
export function schemaAt(lookup: Lookup, root: Record<string, unknown>, location: string): Record<string, unknown> | undefined {
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

/** A JSON-pointer segment of a cfworker location, decoded. */
export function decodeSegment(raw: string): string {
  let key = raw;
  try {
    key = decodeURIComponent(raw);
  } catch {
    key = raw;
  }
  return key.replace(/~1/g, "/").replace(/~0/g, "~");
}
