import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { synonymsOf } from "./synonyms";

const terms = (stem: string) => synonymsOf(stem, {}, []).map((s) => s.term);

describe("general thesaurus (WordNet, pruned) and API vocabulary", () => {
  it("is small enough for the Worker bundle", () => {
    expect(readFileSync(new URL("./thesaurus.json", import.meta.url)).length).toBeLessThan(1_000_000);
  });

  it("keeps its lines sorted by key (lookups are binary searches)", () => {
    const keys = (JSON.parse(readFileSync(new URL("./thesaurus.json", import.meta.url), "utf8")) as { entries: string }).entries.split("\n").map((l) => l.split(" ")[0]);
    expect(keys.every((k, i) => i === 0 || keys[i - 1] < k)).toBe(true);
  });

  it("relates common words by their stems", () => {
    expect(terms("eras")).toContain("delet"); // erase → delete (WordNet)
    expect(terms("remov")).toContain("delet"); // remove → delete (API verbs)
    expect(terms("repo")).toContain("repositori");
    expect(terms("org")).toContain("organ");
    expect(terms("k8s")).toContain("kubernet");
  });

  it("relates nouns one step up or down WordNet's hierarchy, below synonyms", () => {
    const entry = synonymsOf("entri", {}, []);
    // An entry is a written record (the two-word hypernym's last word), and weighs less than a synonym.
    expect(entry.find((s) => s.term === "record")!.weight).toBeLessThan(entry.find((s) => s.term === "introduct")!.weight);
    expect(terms("convers")).toContain("chat"); // a kind of conversation
    // Words mostly used as verbs, or known as API verbs, are not read as nouns of the hierarchy.
    expect(terms("build")).not.toContain("structur");
    expect(terms("abort")).not.toContain("conclus");
  });

  it("gives curated relations more weight than the thesaurus", () => {
    const get = synonymsOf("get", {}, []);
    expect(get.find((s) => s.term === "retriev")).toMatchObject({ curated: true, weight: 0.7 });
    expect(synonymsOf("eras", {}, []).find((s) => s.term === "delet")?.curated).toBe(true);
    expect(synonymsOf("organ", {}, []).find((s) => s.term === "arrang")).toMatchObject({ curated: false });
  });
});
