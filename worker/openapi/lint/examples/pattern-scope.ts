/**
 * @module How example validation checks `pattern` and `patternProperties` without @cfworker/json-schema (which
 * compiles them with `new RegExp`, a backtracking engine) ever seeing a definition's pattern. While one example
 * is validated, its strings and object keys are known; each pattern is run on the linear-time matcher against
 * them, and cfworker receives instead an anchored alternation of the escaped strings that match
 * (`^(?:a1|b2)$`), which gives the same answer on every string of that example and which any engine matches
 * in linear time. Prepared schemas expose the pattern through a getter that reads the current example.
 */
import { PATTERN_BUDGET } from "../../budgets";
import { isObject } from "../util/is-object";
import { testPattern } from "../util/linear-pattern";

interface Scope {
  /** Every string value and object key of the example (up to the budget). */
  strings: Set<string>;
  /** More strings than the budget: patterns are not checked for this example. */
  overflow: boolean;
  /** Per pattern, the JavaScript source cfworker receives. */
  sources: Map<string, string>;
}

let scope: Scope | undefined;

/** The pattern each prepared node was given, for messages (`must match pattern "<original>"`). */
const originals = new WeakMap<object, string>();

/** Matches nothing: an empty alternation. */
const NOTHING = "[^\\s\\S]";
/** Matches everything: what an unchecked pattern becomes (the example passes it, as an unsupported one does). */
const EVERYTHING = "";

function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function collect(value: unknown, out: Scope): void {
  const stack: unknown[] = [value];
  while (stack.length > 0 && !out.overflow) {
    const v = stack.pop();
    if (typeof v === "string") out.strings.add(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (isObject(v)) {
      for (const [k, child] of Object.entries(v)) {
        out.strings.add(k);
        stack.push(child);
      }
    }
    if (out.strings.size > PATTERN_BUDGET.maxStringsPerExample) out.overflow = true;
  }
}

/** Runs `fn` (a validation of `value`) with `value`'s strings as the current example. Not re-entrant by design. */
export function withExample<T>(value: unknown, fn: () => T): T {
  const previous = scope;
  scope = { strings: new Set(), overflow: false, sources: new Map() };
  collect(value, scope);
  try {
    return fn();
  } finally {
    scope = previous;
  }
}

/**
 * The JavaScript pattern standing in for `pattern` while the current example is validated: the alternation of
 * its strings that `pattern` matches. A string the linear-time matcher does not check (longer than the input
 * budget) counts as matching; so does everything when the example has more strings than the budget.
 */
export function standIn(pattern: string, forKeys = false): string {
  const s = scope;
  // Unchecked: a string passes its pattern; a key matches no patternProperties entry (as if the entry were absent).
  if (!s || s.overflow) return forKeys ? NOTHING : EVERYTHING;
  let source = s.sources.get(pattern);
  if (source === undefined) {
    const hits: string[] = [];
    for (const str of s.strings) if (testPattern(pattern, str) !== false) hits.push(escapeLiteral(str));
    source = hits.length === 0 ? NOTHING : `^(?:${hits.join("|")})$`;
    s.sources.set(pattern, source);
  }
  return source;
}

/** Gives `node` (a prepared copy) a `pattern` that reads {@link standIn} at validation time. */
export function deferPattern(node: Record<string, unknown>, pattern: string): void {
  Object.defineProperty(node, "pattern", { get: () => standIn(pattern), enumerable: true, configurable: true });
  originals.set(node, pattern);
}

/** Gives `node` a `patternProperties` whose keys are the stand-ins of `entries`' patterns at validation time. */
export function deferPatternProperties(node: Record<string, unknown>, entries: [string, unknown][]): void {
  Object.defineProperty(node, "patternProperties", {
    get: () => {
      const out: Record<string, unknown> = {};
      for (const [pattern, schema] of entries) {
        const key = standIn(pattern, true);
        // Two patterns matching the same keys: each schema still applies (allOf of both).
        out[key] = key in out ? { allOf: [out[key], schema] } : schema;
      }
      return out;
    },
    enumerable: true,
    configurable: true,
  });
}

/** The pattern a prepared node was written with (its `pattern` is a stand-in while validating). */
export function originalPattern(node: Record<string, unknown>): unknown {
  return originals.get(node) ?? node.pattern;
}
