import { describe, expect, it } from "vitest";
import { deletions, editDistance, maxEdits, TypoFinder } from "./fuzzy";

describe("editDistance (optimal string alignment)", () => {
  it("counts insertions, deletions, substitutions and adjacent swaps as one edit", () => {
    expect(editDistance("schema", "schema", 2)).toBe(0);
    expect(editDistance("schmea", "schema", 2)).toBe(1);
    expect(editDistance("lod", "load", 2)).toBe(1);
    expect(editDistance("firewalll", "firewall", 2)).toBe(1);
    expect(editDistance("fidrewall", "firewall", 2)).toBe(1);
    expect(editDistance("packes", "packets", 2)).toBe(1);
  });

  it("stops early past the bound", () => {
    expect(editDistance("kubernetes", "database", 2)).toBe(3);
  });
});

describe("TypoFinder", () => {
  const words = ["database", "droplet", "firewall", "kubernetes", "load", "schema", "schemas"].sort();
  const finder = new TypoFinder(words);
  const found = (w: string) => finder.find(w).map((c) => words[c.word]).sort();

  it("finds vocabulary words within the allowed edits, never the word itself", () => {
    expect(found("schmea")).toEqual(["schema"]);
    expect(found("lod")).toEqual(["load"]);
    expect(found("kuberntes")).toEqual(["kubernetes"]);
    expect(found("kubrenetess")).toEqual(["kubernetes"]); // a swap plus an extra letter
    expect(found("schema")).toEqual(["schemas"]);
  });

  it("allows no edit below three letters, one up to seven, two from eight", () => {
    expect([maxEdits("ab"), maxEdits("abc"), maxEdits("abcdefg"), maxEdits("abcdefgh")]).toEqual([0, 1, 1, 2]);
    expect(found("xy")).toEqual([]);
    expect(found("drplt")).toEqual([]);
  });

  it("lists distinct deletions", () => {
    expect(deletions("aab").sort()).toEqual(["aa", "ab"]);
  });
});
