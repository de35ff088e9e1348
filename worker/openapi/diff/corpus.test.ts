/// <reference types="node" />
/**
 * Corpus properties of the diff (../shared/corpus, single-file roots under 300 KB): a definition built twice
 * compares equal (no change: the engine reads only what the definition says, deterministically); any two
 * unrelated definitions compare without throwing, with registry ids and levels, JSON pointers, and lines on the
 * side the pointer names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../../test/harness/corpus-files";
import { buildReference } from "../build";
import { diff, RULES, sideFromBuild, type DiffSide } from "./index";

function roots(): string[] {
  const lines = readFileSync(join(CORPUS_DIR, "MANIFEST.tsv"), "utf8").trim().split("\n");
  const header = lines[0].split("\t");
  const col = (name: string) => header.indexOf(name);
  return lines
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((r) => r[col("kind")] === "root" && r[col("multi_file")] === "no" && Number(r[col("bytes")]) < 300_000)
    .map((r) => r[col("local_path")]);
}

function side(path: string): DiffSide | undefined {
  const built = buildReference({ body: readFileSync(join(CORPUS_DIR, path)) });
  return built.ok ? sideFromBuild(built) : undefined;
}

describe("diff over the corpus", () => {
  const files = roots();
  // One build of every file, shared by both tests (the second build of the identity test is per file).
  let sides: (DiffSide | undefined)[] | undefined;
  const built = () => (sides ??= files.map(side));

  it("finds no change between two builds of the same definition (every other file)", () => {
    expect(files.length).toBeGreaterThan(300);
    const differing: string[] = [];
    let compared = 0;
    built().forEach((a, i) => {
      if (!a || i % 2) return;
      const b = side(files[i])!;
      compared++;
      const result = diff(a, b);
      if (result.changes.length) differing.push(`${files[i]}: ${result.changes.slice(0, 3).map((c) => `${c.id} ${c.message}`).join(" | ")}`);
    });
    expect(compared).toBeGreaterThan(150);
    expect(differing).toEqual([]);
  }, 300_000);

  it("compares unrelated definitions without throwing, with registry ids and levels", () => {
    let compared = 0;
    let changes = 0;
    const all = built();
    for (let i = 0; i + 1 < all.length; i++) {
      const a = all[i];
      const b = all[i + 1];
      if (!a || !b) continue;
      const result = diff(a, b);
      compared++;
      changes += result.changes.length;
      for (const c of result.changes) {
        expect(RULES.get(c.id)?.level).toBe(c.level);
        expect(c.pointer === "" || c.pointer.startsWith("/")).toBe(true);
      }
      expect(result.breaking).toBe(result.counts.ERR > 0);
    }
    expect(compared).toBeGreaterThan(300);
    expect(changes).toBeGreaterThan(0);
  }, 300_000);
});
