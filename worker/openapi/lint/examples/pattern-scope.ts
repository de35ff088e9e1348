/**
 * @module How example validation checks `pattern` and `patternProperties` without @cfworker/json-schema (which
 * compiles them with `new RegExp`, a backtracking engine) ever seeing a definition's pattern.
 * - `pattern` becomes a cfworker format, `portico-pattern:<pattern>`, whose check runs the linear-time matcher on
 *   the string being validated (cfworker's format table is its extension point; entries are registered here).
 * - `patternProperties` keys become, while one example is validated, anchored alternations of that example's
 *   object keys the pattern matches (`^(?:x-a|x-b)$`): the same answer on every key of that example, linear on
 *   any engine, so `additionalProperties` still sees which keys they cover. A prepared schema reads them through a
 *   getter bound to the current example.
 * Both spend the lint run's matcher budget ({@link PATTERN_BUDGET}.maxCharsPerLint); once spent, strings pass
 * their patterns and an example with patternProperties is not checked.
 */
import { format as cfworkerFormats } from "@cfworker/json-schema";
import { PATTERN_BUDGET } from "../../budgets";
import { isObject } from "../util/is-object";
import { testPattern } from "../util/linear-pattern";

/** What one lint run may still spend on matching. */
export interface PatternBudget {
  charsLeft: number;
}

/** A fresh budget for one lint run. */
export function createPatternBudget(): PatternBudget {
  return { charsLeft: PATTERN_BUDGET.maxCharsPerLint };
}

/** Thrown (and caught by the validation, which then reports nothing) when an example is too large to check. */
export class ExampleNotChecked extends Error {}

interface Scope {
  value: unknown;
  /** Every object key of the example, collected when a patternProperties entry first asks. */
  keys?: Set<string>;
  sources: Map<string, string>;
  /** Per pattern, the answers given so far (cfworker validates twice: a short-circuiting pass, then all errors). */
  answers: Map<string, Map<string, boolean>>;
  budget: PatternBudget;
}

let scope: Scope | undefined;

/** Matches nothing: an empty alternation. */
const NOTHING = "[^\\s\\S]";
const FORMAT_PREFIX = "portico-pattern:";
const registered = new Set<string>();
const REGISTERED_MAX = 10_000;

function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function collectKeys(value: unknown): Set<string> {
  const keys = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isObject(v)) {
      for (const [k, child] of Object.entries(v)) {
        keys.add(k);
        stack.push(child);
      }
      if (keys.size > PATTERN_BUDGET.maxStringsPerExample) throw new ExampleNotChecked();
    }
  }
  return keys;
}

/** Runs `fn` (a validation of `value`) with `value` as the current example. Not re-entrant by design. */
export function withExample<T>(value: unknown, budget: PatternBudget, fn: () => T): T {
  const previous = scope;
  scope = { value, sources: new Map(), answers: new Map(), budget };
  try {
    return fn();
  } finally {
    scope = previous;
  }
}

/**
 * Runs the linear-time matcher within the current run's budget; `undefined` when the budget is spent. Answers
 * are remembered per example, so that both of cfworker's passes see the same ones.
 */
function matches(pattern: string, input: string): boolean | undefined {
  const s = scope;
  if (!s) return undefined;
  let byInput = s.answers.get(pattern);
  const known = byInput?.get(input);
  if (known !== undefined) return known;
  if (s.budget.charsLeft <= 0) return undefined;
  s.budget.charsLeft -= input.length + 1;
  const answer = testPattern(pattern, input) !== false;
  if (!byInput) s.answers.set(pattern, (byInput = new Map()));
  byInput.set(input, answer);
  return answer;
}

/**
 * The cfworker format name that checks `pattern` (registered on first use). The table is bounded: past
 * {@link REGISTERED_MAX} names the oldest are dropped, and a dropped name is an unknown format, which passes.
 */
export function patternFormat(pattern: string): string {
  const name = FORMAT_PREFIX + pattern;
  if (!registered.has(name)) {
    if (registered.size >= REGISTERED_MAX) {
      const oldest = registered.values().next().value as string;
      registered.delete(oldest);
      delete (cfworkerFormats as Record<string, unknown>)[oldest];
    }
    registered.add(name);
    // Unchecked (budget spent) passes.
    (cfworkerFormats as Record<string, (s: string) => boolean>)[name] = (s) => matches(pattern, s) !== false;
  }
  return name;
}

/** The pattern a {@link patternFormat} name checks, or undefined for other formats. */
export function patternOfFormat(format: string): string | undefined {
  return format.startsWith(FORMAT_PREFIX) ? format.slice(FORMAT_PREFIX.length) : undefined;
}

/** Whether cfworker checks `format` itself (unknown formats pass there). */
export function isCheckedFormat(format: unknown): boolean {
  return typeof format === "string" && typeof (cfworkerFormats as Record<string, unknown>)[format] === "function";
}

/**
 * The JavaScript pattern standing in for a patternProperties key while the current example is validated: the
 * alternation of its keys that `pattern` matches. Throws {@link ExampleNotChecked} when that alternation would
 * be longer than {@link PATTERN_BUDGET}.maxStandInChars (cfworker compiles it once per object it validates).
 */
export function keyStandIn(pattern: string): string {
  const s = scope;
  if (!s) return NOTHING;
  let source = s.sources.get(pattern);
  if (source === undefined) {
    const keys = (s.keys ??= collectKeys(s.value));
    const hits: string[] = [];
    let length = 0;
    for (const key of keys) {
      const hit = matches(pattern, key);
      // Budget spent: which keys the pattern covers is unknown, and guessing would invent errors.
      if (hit === undefined) throw new ExampleNotChecked();
      if (!hit) continue;
      const escaped = escapeLiteral(key);
      length += escaped.length + 1;
      if (length > PATTERN_BUDGET.maxStandInChars) throw new ExampleNotChecked();
      hits.push(escaped);
    }
    source = hits.length === 0 ? NOTHING : `^(?:${hits.join("|")})$`;
    s.sources.set(pattern, source);
  }
  return source;
}

/** Gives `node` a `patternProperties` whose keys are the stand-ins of `entries`' patterns at validation time. */
export function deferPatternProperties(node: Record<string, unknown>, entries: [string, unknown][]): void {
  Object.defineProperty(node, "patternProperties", {
    get: () => {
      const out: Record<string, unknown> = {};
      for (const [pattern, schema] of entries) {
        const key = keyStandIn(pattern);
        // Two patterns matching the same keys: each schema still applies (allOf of both).
        out[key] = key in out ? { allOf: [out[key], schema] } : schema;
      }
      return out;
    },
    enumerable: true,
    configurable: true,
  });
}

/** A shallow copy of a prepared node that keeps its deferred `patternProperties` getter. */
export function cloneNode(node: Record<string, unknown>): Record<string, unknown> {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(node)) as Record<string, unknown>;
}
