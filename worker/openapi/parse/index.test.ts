import { describe, expect, it } from "vitest";
import { LineCounter, parseDocument as parseYamlLibrary } from "yaml";
import { parseDocument } from "./index";
import { parseYaml } from "./yaml";
import type { ParseOutcome } from "./index";

function ok(outcome: ParseOutcome) {
  if (!outcome.ok) throw new Error(`expected a document, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.doc;
}

const LOL = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ..."bcdefghi".split("").map((c, i) => `${c}: &${c} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`),
].join("\n");

describe("parseDocument: JSON", () => {
  it("parses data and reports the format", () => {
    const doc = ok(parseDocument('\uFEFF  {"openapi": "3.1.0", "paths": {}}'));
    expect(doc.format).toBe("json");
    expect(doc.data).toEqual({ openapi: "3.1.0", paths: {} });
    expect(doc.warnings).toEqual([]);
  });

  it("locates members by key, items by index, and missing leaves at their nearest ancestor", () => {
    const doc = ok(parseDocument('{\n  "a": {"b": [1, {"c": 2}]},\n  "x~/y": 3\n}'));
    expect(doc.locate([])).toEqual({ line: 1, column: 1 });
    expect(doc.locate(["a"])).toEqual({ line: 2, column: 3 });
    expect(doc.locate(["a", "b", 1, "c"])).toEqual({ line: 2, column: 19 });
    expect(doc.locate(["a", "b", "1"])).toEqual({ line: 2, column: 18 });
    expect(doc.locate(["a", "b", 1, "missing", "deeper"])).toEqual({ line: 2, column: 18 });
    expect(doc.locate(["x~/y"])).toEqual({ line: 3, column: 3 });
    expect(doc.locate(["nope"])).toEqual({ line: 1, column: 1 });
  });

  it("decodes escaped keys and lets the last duplicate win, like JSON.parse", () => {
    const doc = ok(parseDocument('{"a\\u0062": 1,\n"k": 1,\n"k": 2}'));
    expect(doc.locate(["ab"])).toEqual({ line: 1, column: 2 });
    expect(doc.locate(["k"])).toEqual({ line: 3, column: 1 });
  });

  it("reports syntax errors with line and column", () => {
    expect(parseDocument('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      ok: false,
      error: { code: "syntax", message: "Expected ',' or '}' after property value (line 3, column 3)", line: 3, column: 3 },
    });
    expect(parseDocument('{"a": 1,}')).toMatchObject({ ok: false, error: { code: "syntax", line: 1, column: 9 } });
    expect(parseDocument('{"a": tru}')).toMatchObject({ ok: false, error: { code: "syntax", line: 1, column: 7 } });
    expect(parseDocument('[1, 2')).toMatchObject({ ok: false, error: { code: "syntax", message: "Unexpected end of JSON input (line 1, column 6)" } });
    expect(parseDocument('{"a": "x\ny"}')).toMatchObject({ ok: false, error: { code: "syntax", line: 1, column: 9 } });
    expect(parseDocument("{} x")).toMatchObject({ ok: false, error: { code: "syntax", line: 1, column: 4 } });
  });

  it("refuses a top-level array", () => {
    expect(parseDocument("[1, 2]")).toMatchObject({ ok: false, error: { code: "not-object" } });
  });

  it("refuses 10,000-deep nesting before JSON.parse recurses", () => {
    const outcome = parseDocument("[".repeat(10_000) + "]".repeat(10_000));
    expect(outcome).toEqual({ ok: false, error: { code: "too-deep", message: "Nesting deeper than 256 levels", line: 1, column: 257 } });
  });

  it("ignores brackets inside strings when measuring depth, and honours maxDepth", () => {
    expect(parseDocument(`{"a": "${"[".repeat(1000)}"}`).ok).toBe(true);
    expect(parseDocument('{"a": {"b": {}}}', { maxDepth: 2 })).toMatchObject({ ok: false, error: { code: "too-deep", column: 13 } });
    expect(parseDocument('{"a": {"b": {}}}', { maxDepth: 3 }).ok).toBe(true);
  });
});

describe("parseDocument: YAML", () => {
  const PETS = "openapi: 3.0.0\npaths:\n  /pets:\n    get:\n      responses:\n        200:\n          description: ok\n";

  it("parses YAML 1.2 core schema data (numeric keys become strings)", () => {
    const doc = ok(parseDocument(PETS));
    expect(doc.format).toBe("yaml");
    expect(doc.data).toEqual({ openapi: "3.0.0", paths: { "/pets": { get: { responses: { "200": { description: "ok" } } } } } });
  });

  it("locates keys, numeric keys and sequence items", () => {
    const doc = ok(parseDocument(PETS + "tags:\n  - name: a\n  - name: b\n"));
    expect(doc.locate(["paths", "/pets", "get"])).toEqual({ line: 4, column: 5 });
    expect(doc.locate(["paths", "/pets", "get", "responses", "200"])).toEqual({ line: 6, column: 9 });
    expect(doc.locate(["tags", 1, "name"])).toEqual({ line: 10, column: 5 });
    expect(doc.locate(["paths", "/pets", "post"])).toEqual({ line: 3, column: 3 });
    expect(doc.locate([])).toEqual({ line: 1, column: 1 });
  });

  it("applies << merge keys and locates merged members at their source", () => {
    const doc = ok(parseDocument("base: &base {a: 1}\ny:\n  <<: *base\n  b: 2\n"));
    expect(doc.data).toEqual({ base: { a: 1 }, y: { a: 1, b: 2 } });
    expect(doc.locate(["y", "a"])).toEqual({ line: 1, column: 14 });
    expect(doc.locate(["y", "b"])).toEqual({ line: 4, column: 3 });
  });

  it("turns duplicate keys into warnings (last wins)", () => {
    const doc = ok(parseDocument("a: 1\nb: 0\na: 2\n"));
    expect(doc.data).toEqual({ a: 2, b: 0 });
    expect(doc.warnings).toEqual([{ code: "duplicate-key", message: "Duplicate mapping key (the last one wins)", line: 3, column: 1 }]);
    expect(doc.locate(["a"])).toEqual({ line: 3, column: 1 });
  });

  it("finds the duplicate keys the yaml library finds (nested, flow, quoted, numeric, after anchors), in text order", () => {
    const texts = [
      "a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\na: 2\n",
      "m: {p: 1, q: 2, p: 3}\nl:\n  - {k: 1, k: 2}\n  - k: 1\n    j: 2\n    k: 3\n",
      "\"a\": 1\n'a': 2\n1: x\n\"1\": y\n1: z\n&anchor b: 1\nb: 2\n? c\n: 1\nc: 2\n",
      "base: &base {a: 1}\ny:\n  <<: *base\n  <<: *base\n  b: 2\n  b: 3\n",
    ];
    for (const text of texts) {
      const lines = new LineCounter();
      const reference = parseYamlLibrary(text, { lineCounter: lines, merge: true })
        .errors.filter((e) => e.code === "DUPLICATE_KEY")
        .map((e) => ({ line: lines.linePos(e.pos[0]).line, column: lines.linePos(e.pos[0]).col }));
      expect(reference.length).toBeGreaterThan(0);
      const found = ok(parseDocument(text)).warnings.filter((w) => w.code === "duplicate-key").map(({ line, column }) => ({ line, column }));
      expect(found, text).toEqual(reference);
    }
  });

  it("locates keys of a large mapping (indexed) as of a small one: the last duplicate, then `<<` merges", () => {
    const keys = Array.from({ length: 200 }, (_, i) => `  k${i}: ${i}`);
    const text = `base: &base\n  merged: 1\n  k5: from-base\nbig:\n  <<: *base\n${keys.join("\n")}\n  k7: again\n`;
    const doc = ok(parseDocument(text));
    expect((doc.data as any).big.k7).toBe("again");
    expect(doc.locate(["big", "k0"])).toEqual({ line: 6, column: 3 });
    expect(doc.locate(["big", "k199"])).toEqual({ line: 205, column: 3 });
    expect(doc.locate(["big", "k7"])).toEqual({ line: 206, column: 3 });
    expect(doc.locate(["big", "k5"])).toEqual({ line: 11, column: 3 });
    expect(doc.locate(["big", "merged"])).toEqual({ line: 2, column: 3 });
    expect(doc.locate(["big", "missing"])).toEqual({ line: 4, column: 1 });
  });

  it("reports syntax errors with line and column", () => {
    expect(parseDocument("a: 1\nb: [1, 2\n")).toMatchObject({ ok: false, error: { code: "syntax", line: 3, column: 1 } });
    expect(parseDocument("a: 1\n---\nb: 2\n")).toMatchObject({ ok: false, error: { code: "syntax", line: 2, column: 1 } });
    expect(parseDocument("a: *nowhere\n")).toMatchObject({ ok: false, error: { code: "syntax", line: 1, column: 4 } });
  });

  it("refuses empty, scalar and sequence documents", () => {
    expect(parseDocument("  \n\n")).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(parseDocument("# just a comment\n")).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(parseDocument("hello")).toMatchObject({ ok: false, error: { code: "not-object", line: 1, column: 1 } });
    expect(parseDocument("- 1\n- 2\n")).toMatchObject({ ok: false, error: { code: "not-object" } });
  });

  it("refuses a billion-laughs alias bomb with code aliases", () => {
    expect(parseDocument(LOL)).toMatchObject({ ok: false, error: { code: "aliases", line: 2, column: 8 } });
  });

  it("refuses an alias cycle", () => {
    expect(parseDocument("a: &a [*a]\n")).toMatchObject({ ok: false, error: { code: "aliases", line: 1, column: 8 } });
  });

  it("refuses 10,000-deep flow and block nesting", () => {
    expect(parseDocument("a: " + "{a: ".repeat(10_000) + "1" + "}".repeat(10_000))).toMatchObject({
      ok: false,
      error: { code: "too-deep", line: 1, column: 1024 },
    });
    expect(parseDocument("- ".repeat(10_000) + "x")).toMatchObject({ ok: false, error: { code: "too-deep", line: 1, column: 513 } });
    let block = "";
    for (let i = 0; i < 300; i++) block += `${" ".repeat(i)}a:\n`;
    expect(parseDocument(block)).toMatchObject({ ok: false, error: { code: "too-deep", line: 257, column: 257 } });
  });

  it("refuses depth reached only through aliases", () => {
    const chain = ["l0: &l0 [[[1]]]", ...Array.from({ length: 5 }, (_, i) => `l${i + 1}: &l${i + 1} [[[*l${i}]]]`)].join("\n");
    expect(parseDocument(chain, { maxDepth: 10 })).toMatchObject({ ok: false, error: { code: "too-deep" } });
    expect(parseDocument(chain, { maxDepth: 20 }).ok).toBe(true);
  });

  it("accepts a multi-line quoted string indented only as far as its key (libyaml does), with a warning", () => {
    const doc = ok(parseDocument('SecurityOpt:\n  type: array\n  description: "A list of labels for MLS\n  systems, such as SELinux."\n  items: {type: string}\n'));
    expect(doc.data).toEqual({ SecurityOpt: { type: "array", description: "A list of labels for MLS systems, such as SELinux.", items: { type: "string" } } });
    expect(doc.warnings).toEqual([
      { code: "yaml-warning", message: "Continuation line of a multi-line quoted string is not indented past its key (accepted, as libyaml does)", line: 4, column: 1 },
    ]);
    expect(doc.locate(["SecurityOpt", "items"])).toEqual({ line: 5, column: 3 });
  });

  it("returns any top-level value when requireObject is false (fragments of multi-file definitions)", () => {
    expect(parseDocument("- a\n- b\n", { requireObject: false })).toMatchObject({ ok: true, doc: { data: ["a", "b"] } });
    expect(parseDocument("[1]", { requireObject: false })).toMatchObject({ ok: true, doc: { data: [1] } });
  });
});

describe("parseYaml with values: \"keys\" (a text parsed only for its errors and warnings)", () => {
  const keysOf = (text: string) => parseYaml(text, 64, 1000, true, undefined, undefined, "keys");
  const all = (text: string) => parseYaml(text, 64, 1000, true);

  it("gives the top-level keys without values, and the same warnings and errors as a whole parse", () => {
    const text = "a:\n  b: 1\n  b: 2\n200: x\n~: y\n'q''s': z\n";
    const doc = ok(keysOf(text));
    expect(doc.data).toEqual({ a: undefined, "200": undefined, "": undefined, "q's": undefined });
    expect(Object.keys(doc.data as object)).toEqual(Object.keys(ok(all(text)).data as object));
    expect(doc.warnings).toEqual(ok(all(text)).warnings);
    expect(doc.warnings.map((w) => w.line)).toEqual([3]);
    const broken = 'a:\n  b: "unclosed\n';
    expect(keysOf(broken)).toEqual(all(broken));
  });

  it("builds the values anyway when aliases or merge keys could change the outcome", () => {
    expect(ok(keysOf("a: &x {b: 1}\nc: *x\n")).data).toEqual({ a: { b: 1 }, c: { b: 1 } });
    expect(ok(keysOf("<<: {m: 1}\na: 2\n")).data).toEqual({ m: 1, a: 2 });
    expect(keysOf("a: *missing\n")).toEqual(all("a: *missing\n"));
  });
});
