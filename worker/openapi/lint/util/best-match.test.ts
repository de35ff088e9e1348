import { describe, expect, it } from "vitest";
import { bestMatch, levenshtein, SUGGEST_MAX_CHARS } from "./best-match";

/** The unbounded definition, to compare the bounded one against. */
function plain(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

function oldBestMatch(value: string, allowed: readonly unknown[]): string | null {
  const matches = allowed
    .filter((v): v is string => typeof v === "string")
    .map((v) => ({ value: v, weight: plain(v, value) }))
    .sort((a, b) => a.weight - b.weight);
  if (!matches.length) return null;
  return allowed.length === 1 || matches[0].weight < matches[0].value.length ? matches[0].value : null;
}

describe("bestMatch", () => {
  it("suggests the closest allowed value, as Spectral does", () => {
    expect(bestMatch("strng", ["array", "boolean", "integer", "number", "object", "string"])).toBe("string");
    expect(bestMatch("zzzzzzzz", ["array", "string"])).toBeNull();
    expect(bestMatch("anything", ["only"])).toBe("only");
  });

  it("answers as the unbounded distance would on short strings (pseudo-random cases)", () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = () => Array.from({ length: rnd(9) }, () => "abcxyz"[rnd(6)]).join("");
    for (let i = 0; i < 3000; i++) {
      const value = word();
      const allowed = Array.from({ length: 1 + rnd(5) }, word);
      expect(bestMatch(value, allowed), `${value} ${JSON.stringify(allowed)}`).toBe(oldBestMatch(value, allowed));
    }
  });

  it("keeps the old answer where a short non-qualifying candidate would otherwise win on a bounded distance", () => {
    expect(bestMatch("xyzxyz", ["a", "xyzabc"])).toBe("xyzabc");
  });

  it("does not compute distances to a megabyte string (issue 14)", () => {
    const huge = "lorem ipsum ".repeat(200_000);
    expect(bestMatch(huge, ["array", "boolean", "integer", "number", "object", "string"])).toBeNull();
    expect(bestMatch("strin", ["string", huge])).toBe("string");
    expect(levenshtein(huge, "string", 10)).toBe(11);
    expect(SUGGEST_MAX_CHARS).toBeLessThan(huge.length);
  });
});
