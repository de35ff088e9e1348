/**
 * @module Which `pattern`s from a definition may run against example values. A definition is hostile input:
 * a pattern with nested quantifiers (`^(a+)+$`) backtracks exponentially on a crafted example, and lint runs
 * inside the publisher on every upload. Such patterns are skipped (the example is not checked against them).
 */
import safeRegex from "safe-regex2";

/** Longest pattern we run; longer ones are skipped like unsafe ones. */
const MAX_PATTERN_LENGTH = 1000;

/** True when `pattern` is short and has star height ≤ 1 (safe-regex2's test), so matching is not exponential. */
export function isSafePattern(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  try {
    return safeRegex(pattern);
  } catch {
    return false;
  }
}
