/**
 * @module Keywords that look at one value and never recurse (strings, numbers), with ajv's messages, and the
 * small helpers of the structure validator.
 */

import type { Segment } from "../rule";
import { checkFormat } from "./formats";
import type { SchemaObject } from "./schema-set";

/** Records one failure of the keyword being checked. */
export type Fail = (keyword: string, message: string, params?: Record<string, unknown>) => void;

/** A path from the instance root, as a linked list: built only when an error needs it. */
export interface PathNode {
  parent: PathNode | null;
  key: Segment;
}

const regexCache = new Map<string, RegExp | null>();
export function regex(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, "u");
    } catch {
      re = null;
    }
    regexCache.set(pattern, re);
  }
  return re;
}

export function toPath(node: PathNode | null, base: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (let n = node; n; n = n.parent) out.push(n.key);
  out.reverse();
  return base.length ? [...base, ...out] : out;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeOf(value) === type;
  }
}


export function checkString(s: SchemaObject, inst: string, fail: Fail): boolean {
  let valid = true;
  const length = typeof s.minLength === "number" || typeof s.maxLength === "number" ? [...inst].length : 0;
  if (typeof s.minLength === "number" && length < s.minLength) {
    valid = false;
    fail("minLength", `must NOT have fewer than ${s.minLength} characters`, { limit: s.minLength });
  }
  if (typeof s.maxLength === "number" && length > s.maxLength) {
    valid = false;
    fail("maxLength", `must NOT have more than ${s.maxLength} characters`, { limit: s.maxLength });
  }
  if (typeof s.pattern === "string" && regex(s.pattern)?.test(inst) === false) {
    valid = false;
    fail("pattern", `must match pattern "${s.pattern}"`, { pattern: s.pattern });
  }
  if (typeof s.format === "string" && !checkFormat(s.format, inst)) {
    valid = false;
    fail("format", `must match format "${s.format}"`, { format: s.format });
  }
  return valid;
}

export function checkNumber(s: SchemaObject, inst: number, fail: Fail): boolean {
  let valid = true;
  const bound = (keyword: string, comparison: string, limit: unknown): void => {
    valid = false;
    fail(keyword, `must be ${comparison} ${String(limit)}`, { comparison, limit });
  };
  // Draft-04 boolean exclusiveMinimum/Maximum (the 2.0 schema still references draft-04 definitions).
  if (typeof s.minimum === "number" && (s.exclusiveMinimum === true ? inst <= s.minimum : inst < s.minimum)) bound("minimum", s.exclusiveMinimum === true ? ">" : ">=", s.minimum);
  if (typeof s.maximum === "number" && (s.exclusiveMaximum === true ? inst >= s.maximum : inst > s.maximum)) bound("maximum", s.exclusiveMaximum === true ? "<" : "<=", s.maximum);
  if (typeof s.exclusiveMinimum === "number" && inst <= s.exclusiveMinimum) bound("exclusiveMinimum", ">", s.exclusiveMinimum);
  if (typeof s.exclusiveMaximum === "number" && inst >= s.exclusiveMaximum) bound("exclusiveMaximum", "<", s.exclusiveMaximum);
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) {
    const q = inst / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) {
      valid = false;
      fail("multipleOf", `must be multiple of ${s.multipleOf}`, { multipleOf: s.multipleOf });
    }
  }
  return valid;
}
