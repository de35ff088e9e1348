import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "../../parse";
import { YamlOutline } from "./yaml-outline";

const CORPUS = join(__dirname, "../../../../../shared/corpus");

/** Every path of a parsed document (objects and arrays), up to `limit`. */
function paths(data: unknown, limit: number): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (out.length >= limit) return;
    out.push(path);
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
    else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
  };
  walk(data, []);
  return out;
}

describe("YamlOutline", () => {
  it("locates keys, items and nested blocks", () => {
    const text = "openapi: 3.1.0\npaths:\n  /pets:\n    get:\n      tags:\n        - a\n        - b\n      parameters:\n        - name: id\n          in: path\n  '/x: y':\n    summary: q\n";
    const outline = new YamlOutline(text);
    expect(outline.locate(["paths", "/pets", "get", "tags", 1])).toEqual({ line: 7, column: 11 });
    expect(outline.locate(["paths", "/pets", "get", "parameters", 0, "in"])).toEqual({ line: 10, column: 11 });
    expect(outline.locate(["paths", "/x: y", "summary"])).toEqual({ line: 12, column: 5 });
    expect(outline.locate(["paths", "/missing"])).toEqual({ line: 2, column: 1 });
  });

  it("finds the entries containing a line", () => {
    const outline = new YamlOutline("a:\n  b:\n    c: 1\n    d:\n      - x\n  e: 2\n");
    expect(outline.stepsAt(4).map((s) => s.segment)).toEqual(["a", "b", "d", 0]);
    expect(outline.stepsAt(5).map((s) => s.segment)).toEqual(["a", "e"]);
  });

  it.each([
    "oai-spec/examples/v3.0/petstore-expanded.yaml",
    "oai-spec/examples/v3.0/uspto.yaml",
    "readme-oas-examples/3.1/yaml/readme.yaml",
    "twilio/spec/yaml/twilio_assistants_v1.yaml",
    "oai-spec-v3.2-dev/tests/schema/pass/mega.yaml",
  ])("agrees with the parser's locator on %s (where it can follow the path: not into flow collections)", (file) => {
    const text = readFileSync(join(CORPUS, file), "utf8");
    const parsed = parseDocument(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const outline = new YamlOutline(text);
    const all = paths(parsed.doc.data, 20000);
    const followed = all.filter((p) => outline.walk(p).length === p.length);
    expect(followed.length).toBeGreaterThan(all.length * 0.5);
    const disagree = followed.filter((p) => parsed.doc.locate(p)?.line !== outline.locate(p).line);
    expect(disagree.slice(0, 5)).toEqual([]);
  });
});
