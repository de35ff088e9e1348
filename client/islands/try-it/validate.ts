/**
 * @module Checks a Try-it parameter value against its schema's constraints before anything is sent (JSON Schema
 * 2020-12 §6: type, enum, minimum/maximum and their exclusive forms, minLength/maxLength, pattern, minItems/maxItems).
 * Patterns run on re2js (linear time, loaded only when a pattern is there), never on JavaScript's backtracking
 * RegExp: a definition's `^(a+)+$` must not freeze the reader's tab. Values and patterns are capped in length.
 */
import type { TryConstraints } from "../../../worker/openapi/samples/try-spec";

/** Longest pattern compiled and longest value tested (characters); longer ones are not pattern-checked. */
export const PATTERN_CAPS = { pattern: 2_000, value: 8_192 } as const;

/** A compiled pattern test, or undefined when the pattern is not checked (too long, not RE2 syntax). */
export type PatternTest = (value: string) => boolean;

/** Compiles patterns on re2js; injected so the check stays synchronous once patterns are compiled. */
export type PatternCompiler = (pattern: string) => PatternTest | undefined;

/** Loads re2js and returns a compiler over it (memoised per pattern; unsupported syntax → undefined). */
export async function loadPatternCompiler(): Promise<PatternCompiler> {
  const { RE2JS } = await import("re2js");
  const cache = new Map<string, PatternTest | undefined>();
  return (pattern) => {
    if (cache.has(pattern)) return cache.get(pattern);
    let test: PatternTest | undefined;
    if (pattern.length <= PATTERN_CAPS.pattern) {
      try {
        const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
        test = (value) => re.matcher(value).find();
      } catch {
        test = undefined; // backreferences, lookarounds: not checked (the server's linter says so to writers)
      }
    }
    cache.set(pattern, test);
    return test;
  };
}

/** Whether `c` (or its items) has a pattern, so the caller knows to load the compiler first. */
export function needsPatterns(c: TryConstraints): boolean {
  return c.pattern !== undefined || (c.items?.pattern !== undefined);
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function checkScalar(value: string, c: TryConstraints, compile: PatternCompiler | undefined): string | undefined {
  if (c.type === "integer" && !INTEGER.test(value)) return "must be a whole number";
  if (c.type === "number" && !NUMBER.test(value)) return "must be a number";
  if (c.type === "boolean" && value !== "true" && value !== "false") return "must be true or false";
  if (c.enum && c.enum.length > 0 && !c.enum.includes(value)) return `must be one of ${c.enum.slice(0, 10).join(", ")}${c.enum.length > 10 ? ", …" : ""}`;
  if (c.type === "integer" || c.type === "number") {
    const n = Number(value);
    if (c.minimum !== undefined && n < c.minimum) return `must be at least ${c.minimum}`;
    if (c.maximum !== undefined && n > c.maximum) return `must be at most ${c.maximum}`;
    if (c.exclusiveMinimum !== undefined && n <= c.exclusiveMinimum) return `must be more than ${c.exclusiveMinimum}`;
    if (c.exclusiveMaximum !== undefined && n >= c.exclusiveMaximum) return `must be less than ${c.exclusiveMaximum}`;
  }
  const length = [...value].length; // code points, as JSON Schema counts
  if (c.minLength !== undefined && length < c.minLength) return `must be at least ${c.minLength} characters`;
  if (c.maxLength !== undefined && length > c.maxLength) return `must be at most ${c.maxLength} characters`;
  if (c.pattern !== undefined && compile && value.length <= PATTERN_CAPS.value) {
    const test = compile(c.pattern);
    if (test && !test(value)) return `must match the pattern ${c.pattern.length > 80 ? `${c.pattern.slice(0, 80)}…` : c.pattern}`;
  }
  return undefined;
}

/**
 * Why `value` breaks `constraints`, or undefined when it passes. An empty value fails only when `required`
 * (an optional empty field is not sent). Arrays are comma-separated items, each checked against `items`.
 * `compile` is needed for patterns; without it patterns are not checked.
 */
export function checkValue(value: string, constraints: TryConstraints, required: boolean, compile?: PatternCompiler): string | undefined {
  if (value === "") return required ? "is required" : undefined;
  if (constraints.type === "array") {
    const items = value.split(",").map((s) => s.trim());
    if (constraints.minItems !== undefined && items.length < constraints.minItems) return `needs at least ${constraints.minItems} items`;
    if (constraints.maxItems !== undefined && items.length > constraints.maxItems) return `takes at most ${constraints.maxItems} items`;
    for (const item of items) {
      const why = checkScalar(item, constraints.items ?? {}, compile);
      if (why) return `item "${item.length > 40 ? `${item.slice(0, 40)}…` : item}" ${why}`;
    }
    return undefined;
  }
  if (constraints.type === "object") return undefined;
  return checkScalar(value, constraints, compile);
}
