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

  it("finds the three-letter words a two-letter word is one dropped letter of", () => {
    const short = new TypoFinder(["gat", "get", "got", "gtx", "ge", "tag"].sort());
    const names = (w: string) => short.find(w).map((c) => [...["gat", "get", "got", "gtx", "ge", "tag"].sort()][c.word]).sort();
    expect(names("gt")).toEqual(["gat", "get", "got", "gtx"]);
    expect(short.find("gt").every((c) => c.distance === 1)).toBe(true);
    expect(names("zq")).toEqual([]);
  });

  it("finds two swaps or substitutions in a long word by a scan of the words sharing its first letter", () => {
    const long = ["parameters", "parameter", "paragraph", "password", "query"].sort();
    const f = new TypoFinder(long);
    // Two swaps: out of reach of the deletion map (two deletions on each side), within two edits.
    expect(f.find("paaremters").map((c) => long[c.word])).toEqual(["parameters"]);
    expect(f.find("paaremters")[0].distance).toBe(2);
    // A different first letter is not scanned (typing rarely gets the first letter wrong).
    expect(f.find("baaremters")).toEqual([]);
  });

  it("allows one edit up to seven letters, two from eight, and none below three beyond a dropped letter", () => {
    expect([maxEdits("ab"), maxEdits("abc"), maxEdits("abcdefg"), maxEdits("abcdefgh")]).toEqual([0, 1, 1, 2]);
    expect(found("xy")).toEqual([]);
    expect(found("drplt")).toEqual([]);
  });

  it("lists distinct deletions", () => {
    expect(deletions("aab").sort()).toEqual(["aa", "ab"]);
  });
});
