/// <reference types="node" />
/**
 * Every rule docs/diff.md marks "same id" must be an oasdiff checker id (test/fixtures/oasdiff-levels.txt, read
 * from oasdiff's rules.go) and carry oasdiff's level, unless docs/diff.md's "Levels that differ from oasdiff" section
 * names it with a reason.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");

/** `a-{b,c}-d{,-e}` → every alternative (nested braces are not used). */
function expand(pattern: string): string[] {
  const m = /\{([^}]*)\}/.exec(pattern);
  if (!m) return [pattern];
  return m[1].split(",").flatMap((alt) => expand(pattern.slice(0, m.index) + alt + pattern.slice(m.index + m[0].length)));
}

function oasdiffLevels(): Map<string, string> {
  const levels = new Map<string, string>();
  for (const line of readFileSync(resolve(ROOT, "test/fixtures/oasdiff-levels.txt"), "utf8").split("\n")) {
    const m = /^(ERR|WARN|INFO) (\S+)$/.exec(line.trim());
    if (m) for (const id of expand(m[2])) levels.set(id, m[1]);
  }
  return levels;
}

const doc = readFileSync(resolve(ROOT, "docs/diff.md"), "utf8");
const table = [...doc.matchAll(/^\| `([^`]+)` \| (ERR|WARN|INFO) \| .* \| (same id|ours) \|$/gm)].map((m) => ({ id: m[1], level: m[2], origin: m[3] }));
const section = /## Levels that differ from oasdiff\n([\s\S]*?)(\n## |$)/.exec(doc)?.[1] ?? "";
/** Ids the section explains: a bullet starting with the id in backticks and giving a reason after it. */
const explained = new Set([...section.matchAll(/^- `([^`]+)`: .{20,}/gm)].map((m) => m[1]));

describe("docs/diff.md against oasdiff's levels", () => {
  const levels = oasdiffLevels();
  it("reads the rules table and the reference", () => {
    expect(table.length).toBeGreaterThan(400);
    expect(levels.size).toBeGreaterThan(400);
  });
  for (const rule of table.filter((r) => r.origin === "same id")) {
    it(`${rule.id} is oasdiff's id at oasdiff's level (or explained)`, () => {
      expect(levels.has(rule.id), `${rule.id} is marked "same id" but oasdiff has no such id`).toBe(true);
      if (levels.get(rule.id) !== rule.level) expect(explained.has(rule.id), `${rule.id}: ${rule.level} here, ${levels.get(rule.id)} in oasdiff, and no reason in docs/diff.md`).toBe(true);
    });
  }
  it("explains only ids that do differ", () => {
    for (const id of explained) expect(table.find((r) => r.id === id)?.level, id).not.toBe(levels.get(id));
  });
});
