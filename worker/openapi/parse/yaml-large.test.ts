/// <reference types="node" />
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../../test/harness/corpus-files";
import type { ParsedDocument } from "./types";
import { parseYaml } from "./yaml";
import { splitYaml } from "./yaml-chunks";

const CORPUS = CORPUS_DIR;

function ok(outcome: ReturnType<typeof parseYaml>): ParsedDocument {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.doc;
}

/** Paths worth locating: every member two levels down, and every operation. */
function samplePaths(data: Record<string, unknown>): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(data)) {
    out.push([k]);
    if (v && typeof v === "object") for (const [k2, v2] of Object.entries(v)) {
      out.push([k, k2]);
      if (k === "paths" && v2 && typeof v2 === "object") for (const m of Object.keys(v2)) out.push([k, k2, m, "responses"]);
    }
  }
  return out;
}

describe("large YAML, parsed entry by entry", () => {
  it("splits by indentation: sequences stay with their key, large mappings split into their entries", () => {
    const text = "openapi: 3.1.0\n# note\ntags:\n- name: a\npaths:\n  /a:\n    get: {}\n  '/b': 1\ninfo: {title: t}\n";
    const at = (s: string) => text.indexOf(s);
    expect(splitYaml(text, 20)).toEqual({
      chunks: [
        { path: [], key: "openapi", start: 0, end: at("tags:"), line: 0 },
        { path: [], key: "tags", start: at("tags:"), end: at("paths:"), line: 2 },
        { path: ["paths"], key: "/a", start: at("  /a:"), end: at("  '/b'"), line: 5 },
        { path: ["paths"], key: "/b", start: at("  '/b'"), end: at("info:"), line: 7 },
        { path: [], key: "info", start: at("info:"), end: text.length, line: 8 },
      ],
      containers: [{ path: ["paths"], line: 5, column: 1 }],
    });
    expect(splitYaml("[1, 2]\n", 10)).toBeUndefined();
    expect(splitYaml("%YAML 1.2\n---\na: 1\n", 10)).toBeUndefined();
  });

  it("gives the same data and positions as a whole parse for every YAML root of the corpus", () => {
    const lines = readFileSync(`${CORPUS}/MANIFEST.tsv`, "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
    const yamlRoots = lines.filter((r) => r[12] === "root" && r[6] === "yaml").map((r) => r[0]);
    expect(yamlRoots.length).toBe(231);
    let split = 0;
    for (const path of yamlRoots) {
      const text = readFileSync(`${CORPUS}/${path}`, "utf8").replace(/^\uFEFF/, "");
      const whole = ok(parseYaml(text, 256, 1000, true, Infinity));
      const chunked = ok(parseYaml(text, 256, 1000, true, 0));
      expect(chunked.data, path).toEqual(whole.data);
      if (splitYaml(text, 64 * 1024)) split++;
      for (const p of samplePaths(whole.data as Record<string, unknown>)) expect(chunked.locate(p), `${path} ${p.join("/")}`).toEqual(whole.locate(p));
    }
    expect(split).toBeGreaterThan(200);
  }, 60_000);

  it("falls back to a whole parse when an alias crosses entries, and still refuses an alias bomb", () => {
    const text = "base: &b {a: 1}\nuse: *b\n";
    expect(ok(parseYaml(text, 256, 1000, true, 0)).data).toEqual({ base: { a: 1 }, use: { a: 1 } });
    const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ..."bcdefghi".split("").map((c, i) => `${c}: &${c} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`)].join("\n");
    expect(parseYaml(lol, 256, 1000, true, 0)).toMatchObject({ ok: false, error: { code: "aliases" } });
  });

  it("reports depth with the right line from inside an entry", () => {
    const text = "a: 1\nb:\n  c: " + "[".repeat(300) + "]".repeat(300) + "\n";
    expect(parseYaml(text, 256, 1000, true, 0)).toMatchObject({ ok: false, error: { code: "too-deep", line: 3 } });
  });
});
