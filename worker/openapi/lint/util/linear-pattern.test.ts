import { describe, expect, it } from "vitest";
import { lintDocument } from "../lint-document";
import { compilePattern, testPattern } from "./linear-pattern";

const N = 40_000;

/**
 * Known ReDoS patterns, each with an attack string of 30-50k characters that makes a backtracking engine
 * (JavaScript's RegExp) run for longer than the universe's age; this file would hang if any reached one.
 * Sources: OWASP "Regular expression Denial of Service" (evil regexes, the email and Java-classname ones),
 * the safe-regex and redos-detector test suites (star height > 1, overlapping alternations, repeated groups
 * of optional parts), and published CVEs (URL and trim patterns, polynomial ones).
 */
const CORPUS: { pattern: string; attack: string; matches: boolean }[] = [
  // OWASP: the classic evil regexes.
  { pattern: "^(a+)+$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "(a+)+$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(a|aa)+$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(a|a?)+$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(.*a){20}$", attack: "a".repeat(19) + "b".repeat(N), matches: false },
  { pattern: "(.*a){20}", attack: "a".repeat(19) + "b".repeat(N), matches: false },
  { pattern: "^(([a-z])+.)+[A-Z]([a-z])+$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(\\w+\\s?)+$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "(x+x+)+y", attack: "x".repeat(N), matches: false },
  // OWASP: the email validation regex (RegExLib).
  { pattern: "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$", attack: "a".repeat(N) + "!", matches: false },
  // A common email regex with overlapping classes around the dot (polynomial backtracking).
  { pattern: "^([a-zA-Z0-9_\\-\\.]+)@([a-zA-Z0-9_\\-\\.]+)\\.([a-zA-Z]{2,5})$", attack: "a@" + "a".repeat(N), matches: false },
  { pattern: "^[\\w.+-]+@([\\w-]+\\.)+[\\w-]{2,}$", attack: "a@" + "a-".repeat(N / 2) + "!", matches: false },
  // URL regexes with nested repetition (star height 2), as in many "validate a URL" snippets.
  { pattern: "^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$", attack: "http://a.bc" + "/a".repeat(N / 2) + "!", matches: false },
  { pattern: "^(([a-zA-Z]{1,6}:)?\\/\\/)?([\\w-]+\\.)+[\\w-]+(\\/[\\w\\-.%]*)*$", attack: "http://" + "a.".repeat(N / 2) + "!", matches: false },
  // safe-regex: star height > 1 and repeated groups.
  { pattern: "^(a*)*$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(a+)*$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(?:a|a)*$", attack: "a".repeat(N) + "!", matches: false },
  { pattern: "^(\\d+)*$", attack: "1".repeat(N) + "x", matches: false },
  { pattern: "^(?:\\d+,?)+$", attack: "1".repeat(N) + "x", matches: false },
  // redos-detector: overlapping alternatives and adjacent overlapping quantifiers.
  { pattern: "^(\\w|\\d)+$", attack: "1".repeat(N) + "!", matches: false },
  { pattern: "^(a|b|ab)*c$", attack: "ab".repeat(N / 2), matches: false },
  { pattern: "^(\\s*,\\s*)*$", attack: ",".repeat(N) + "x", matches: false },
  { pattern: "^\\d*\\d*\\d*\\d*\\d*\\d*x$", attack: "1".repeat(N), matches: false },
  // Polynomial ones from CVEs (trim and comment-stripping patterns): quadratic on a backtracking engine.
  { pattern: "\\s*#?\\s*$", attack: " ".repeat(N) + "x", matches: true },
  { pattern: "^\\s+|\\s+$", attack: "a" + " ".repeat(N) + "a", matches: false },
  { pattern: "^(a+)+b", attack: "a".repeat(N), matches: false },
];

describe("linear-time pattern matching: the ReDoS corpus", () => {
  it.each(CORPUS)("$pattern finishes on a 30-50k attack string", ({ pattern, attack, matches }) => {
    expect(attack.length).toBeGreaterThanOrEqual(30_000);
    expect(attack.length).toBeLessThanOrEqual(50_002);
    expect(compilePattern(pattern).ok).toBe(true);
    expect(testPattern(pattern, attack)).toBe(matches);
  });

  it("checks every corpus example through lint and reports the ones that do not match, in Spectral's words", () => {
    const schemas = CORPUS.map((c, i) => `    P${i}:\n      type: string\n      pattern: ${JSON.stringify(c.pattern)}\n      example: ${JSON.stringify(c.attack)}`).join("\n");
    const text = `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n${schemas}\n`;
    const problems = lintDocument(text).problems.filter((p) => p.rule === "oas3-valid-schema-example");
    const expected = CORPUS.map((c, i) => ({ c, i })).filter(({ c }) => !c.matches)
      .map(({ c, i }) => ({ message: `"example" property must match pattern "${c.pattern}"`, path: ["components", "schemas", `P${i}`, "example"] }));
    expect(problems.map((p) => ({ message: p.message, path: p.path }))).toEqual(expected);
  });
});

describe("linear-time pattern matching: what is not checked", () => {
  it("refuses backreferences and lookarounds, and says why", () => {
    expect(compilePattern("^(a)\\1$")).toEqual({ ok: false, note: "pattern not checked: not supported by the linear-time matcher" });
    expect(compilePattern("^(?=a)")).toEqual({ ok: false, note: "pattern not checked: not supported by the linear-time matcher" });
    expect(compilePattern("(?<!a)b")).toEqual({ ok: false, note: "pattern not checked: not supported by the linear-time matcher" });
    expect(testPattern("^(a)\\1$", "aa")).toBeUndefined();
  });

  it("refuses over-long and over-large patterns and over-long input", () => {
    expect(compilePattern("a".repeat(2_001))).toEqual({ ok: false, note: "pattern not checked: too long" });
    expect(compilePattern("(a{2,100}){2,100}")).toEqual({ ok: false, note: "pattern not checked: too complex" });
    expect(compilePattern("([a-z]{1000}[0-9]{1000}){3}")).toEqual({ ok: false, note: "pattern not checked: too complex" });
    expect(compilePattern("[a-z]{1000}[0-9]{1000}".repeat(3))).toEqual({ ok: false, note: "pattern not checked: too complex" });
    expect(testPattern("^a+$", "a".repeat(70_000))).toBeUndefined();
  });

  it("reads JavaScript syntax as JavaScript does (\\u escapes, named groups, unanchored test)", () => {
    expect(testPattern("^[\\u0041-\\u005A]+$", "ABC")).toBe(true);
    expect(testPattern("^(?<year>\\d{4})-\\d{2}$", "2024-01")).toBe(true);
    expect(testPattern("b", "abc")).toBe(true);
    expect(testPattern("^b", "abc")).toBe(false);
  });
});

describe("linear-time pattern matching: RE2's limits widened, never narrowed", () => {
  it("reads counts above RE2's 1,000 as unbounded (a superset: may miss a mismatch, never invents one)", () => {
    expect(testPattern("^arn:[a-z]{1,63}:.{0,1023}$", "arn:aws:" + "x".repeat(1500))).toBe(true); // JavaScript: false
    expect(testPattern("^arn:[a-z]{1,63}:.{0,1023}$", "nope")).toBe(false);
    expect(testPattern("^[a-zA-Z0-9\\/\\+\\=]{0,2048}$", "abc+/=")).toBe(true);
    expect(testPattern("^[a-zA-Z0-9\\/\\+\\=]{0,2048}$", "abc!")).toBe(false);
    expect(testPattern("^a{1500}$", "a".repeat(1500))).toBe(true);
    expect(testPattern("^[{]{2000}x\\{1001}$", "{{x{1001}")).toBe(false);
  });

  it("spells \\p{ASCII} as a range", () => {
    expect(testPattern("^\\p{ASCII}{0,8192}$", "plain text")).toBe(true);
    expect(testPattern("^\\p{ASCII}{0,8192}$", "café")).toBe(false);
    expect(testPattern("^[\\p{ASCII}é]+$", "café")).toBe(true);
  });
});
