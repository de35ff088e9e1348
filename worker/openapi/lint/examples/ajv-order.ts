/**
 * @module Which of an example's failures Spectral reports: ajv (without allErrors) stops at the first failing
 * keyword in its own evaluation order, and a failing anyOf/oneOf brings its branches' errors along.
 */

import { isObject } from "../util/is-object";
import { decodeSegment } from "./cfworker-errors";
import type { AjvLikeError } from "./describe-errors";

type Lookup = Record<string, unknown>;

/**
 * ajv without allErrors stops at the first failing keyword, in its own keyword order; cfworker (run with all
 * errors) finds them all. Keep what ajv would have reported: the first leaf in ajv's order, the `if` errors
 * around it, and when it sits in a failing anyOf/oneOf, that combinator with all its branches' errors.
 */
export function firstFailure(errors: AjvLikeError[], lookup: Lookup, root: Record<string, unknown>): AjvLikeError[] {
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
