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

  it("follows paths into flow collections: a member at its key, an item at its value", () => {
    const text = [
      "paths:",
      "  /a:",
      "    get:",
      "      parameters:",
      "        - {name: id, in: path, schema: {type: integer, enum: [1, 2, \"x, y\"]}}",
      "      responses: {'200': {description: ok, headers: {X-A: {schema: {}}}},",
      "        '404': {",
      "          description: 'not # a comment',  # a comment",
      "          content: {application/json: {example: [a, {b: [c, d]}]}}",
      "        }}",
      "      tags: [one, two]",
    ].join("\n");
    const outline = new YamlOutline(text);
    const at = (...path: (string | number)[]) => outline.locate(path);
    expect(at("paths", "/a", "get", "parameters", 0, "in")).toEqual({ line: 5, column: 22 });
    expect(at("paths", "/a", "get", "parameters", 0, "schema", "enum", 2)).toEqual({ line: 5, column: 69 });
    expect(at("paths", "/a", "get", "responses", "404", "content", "application/json", "example", 1, "b", 1)).toEqual({ line: 9, column: 61 });
    expect(at("paths", "/a", "get", "tags", 1)).toEqual({ line: 11, column: 19 });
    // A missing member: the nearest one found.
    expect(at("paths", "/a", "get", "responses", "404", "nope")).toEqual({ line: 7, column: 9 });
    // The parser's locator agrees on every path.
    const parsed = parseDocument(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const p of paths(parsed.doc.data, 1000)) expect([p, outline.locate(p)]).toEqual([p, parsed.doc.locate(p)]);
  });

  it.each([
    "oai-spec/examples/v3.0/petstore-expanded.yaml",
    "oai-spec/examples/v3.0/uspto.yaml",
    "readme-oas-examples/3.1/yaml/readme.yaml",
    "twilio/spec/yaml/twilio_assistants_v1.yaml",
    "oai-spec-v3.2-dev/tests/schema/pass/mega.yaml",
  ])("agrees with the parser's locator on %s (where it can follow the path)", (file) => {
    const text = readFileSync(join(CORPUS, file), "utf8");
    const parsed = parseDocument(text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const outline = new YamlOutline(text);
    const all = paths(parsed.doc.data, 20000);
    const followed = all.filter((p) => outline.walk(p).length === p.length);
    expect(followed.length).toBeGreaterThan(all.length * 0.5);
    const disagree = followed.filter((p) => parsed.doc.locate(p)?.line !== outline.locate(p).line);
    expect(disagree.slice(0, 5)).toEqual([]);
    // Into flow collections too (the outline's walk stops at them; locate goes on), line and column.
    const located = (p: (string | number)[]) => JSON.stringify(outline.locate(p));
    const flowDisagree = all.filter((p) => outline.walk(p).length < p.length && located(p) !== JSON.stringify(parsed.doc.locate(p)));
    expect(flowDisagree.slice(0, 5)).toEqual([]);
  });
});
