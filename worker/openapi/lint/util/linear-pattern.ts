/**
 * @module A definition's regular expressions (`pattern`, `patternProperties` keys) on a linear-time matcher.
 * A definition is hostile input: `^(a+)+$` with a crafted example backtracks for hours on JavaScript's RegExp,
 * and lint runs in the publisher on every upload. re2js (a pure-JS port of RE2: no eval, runs in workerd)
 * matches in time linear in the input, so these patterns never reach a backtracking engine. Patterns RE2 cannot
 * express (backreferences, lookarounds) are not checked, and say so; so are over-long or over-large ones.
 */
import { RE2JS } from "re2js";
import { BUDGET_NOTES, PATTERN_BUDGET } from "../../budgets";
import { widenForRe2 } from "./re2-syntax";

/** A pattern compiled for the linear-time matcher, or why it is not checked (the note writers see). */
export type CompiledPattern = { ok: true; matcher: RE2JS } | { ok: false; note: string };

/**
 * Compiled patterns, least recently used first out. 64: a compiled RE2 program is kilobytes, and 4,096 of them (the
 * bound before) kept the isolate's heap growing with every definition it linted (issue 37: +1.5 MB over 200 small
 * corpus definitions, still so with 512); a definition's own patterns recur within its run, which is what the cache
 * is for, and the most recently used are kept.
 */
const cache = new Map<string, CompiledPattern>();
const CACHE_MAX = 64;

/**
 * Compiles an ECMA-262 `pattern` (JSON Schema §6.3.3: ECMA-262 dialect, unanchored) for RE2: JavaScript-only
 * syntax (`\u{…}`, `(?<name>`) is translated first. Memoised; never throws.
 */
export function compilePattern(pattern: string): CompiledPattern {
  const known = cache.get(pattern);
  if (known) {
    cache.delete(pattern);
    cache.set(pattern, known);
    return known;
  }
  const compiled = compile(pattern);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}

function compile(pattern: string): CompiledPattern {
  if (pattern.length > PATTERN_BUDGET.maxPatternLength) return { ok: false, note: BUDGET_NOTES.patternTooLong };
  let matcher: RE2JS;
  try {
    matcher = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    // Counts above RE2's 1,000 (`.{0,1023}`, common in AWS definitions) and `\p{ASCII}`: retry widened, which can
    // miss a mismatch but never invents one.
    try {
      matcher = RE2JS.compile(RE2JS.translateRegExp(widenForRe2(pattern)));
    } catch (error) {
      // Still refused for size (nested counted repeats, "invalid repeat count"): too complex, not unsupported.
      const message = error instanceof Error ? error.message : "";
      return { ok: false, note: /repeat count|too large|too long|expression too/i.test(message) ? BUDGET_NOTES.patternTooComplex : BUDGET_NOTES.patternUnsupported };
    }
  }
  if (matcher.programSize() > PATTERN_BUDGET.maxProgramSize) return { ok: false, note: BUDGET_NOTES.patternTooComplex };
  return { ok: true, matcher };
}

/**
 * Whether `input` matches `pattern` anywhere (RegExp `test` semantics), on the linear-time matcher; `undefined`
 * when it is not checked (pattern not supported, too complex or too long, or input longer than
 * {@link PATTERN_BUDGET}.maxInputLength).
 */
export function testPattern(pattern: string, input: string): boolean | undefined {
  const compiled = compilePattern(pattern);
  if (!compiled.ok || input.length > PATTERN_BUDGET.maxInputLength) return undefined;
  return compiled.matcher.test(input);
}
