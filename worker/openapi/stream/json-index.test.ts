import { describe, expect, it } from "vitest";
import { parseDocument } from "../parse";
import { indexJson, type JsonIndex } from "./json-index";

/** The text's UTF-8 bytes in chunks of `size` (1 byte exercises every token and character split). */
async function* chunked(text: string | Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const SAMPLE = `{
  "openapi": "3.1.0",
  "info": {"title": "Zoë 😀 API", "version": "1"},
  "paths": {
    "/a/ünï": {"get": {"responses": {"200": {"description": "ok"}}}},
    "/b": {"$ref": "#/components/pathItems/B"} ,
  "/c":{}
  },
  "webhooks": {"w": {"post": {}}},
  "components": {"schemas": {"😀x": {"type": "string"}, "Y": [1, 2, {"z": null}]}, "pathItems": {"B": {}}, "empty": {}},
  "x-tail": [true, false, null, -1.5e3, "s"]
}
`;

function expectMatchesFullParse(text: string, index: JsonIndex) {
  const full = parseDocument(text);
  if (!full.ok) throw new Error("sample must parse");
  const data = full.doc.data as Record<string, any>;
  const bytes = new TextEncoder().encode(text);
  const decode = (a: number, b: number) => JSON.parse(new TextDecoder().decode(bytes.subarray(a, b)));
  const check = (path: string[], entry: { keyAt: unknown; start: number; end: number; at: unknown }, value: unknown) => {
    expect(entry.keyAt).toEqual(full.doc.locate(path));
    expect(decode(entry.start, entry.end)).toEqual(value);
    // The value's own position: where the full parse locates its first child, or the key's line for scalars.
    expect((entry.at as { line: number }).line).toBeGreaterThanOrEqual((entry.keyAt as { line: number }).line);
  };
  expect([...index.top.keys()]).toEqual(Object.keys(data));
  for (const [key, entry] of index.top) check([key], entry, data[key]);
  for (const [key, entry] of index.paths) check(["paths", key], entry, data.paths[key]);
  for (const [key, entry] of index.webhooks) check(["webhooks", key], entry, data.webhooks[key]);
  expect([...index.components.keys()]).toEqual(Object.keys(data.components).filter((k) => typeof data.components[k] === "object" && !Array.isArray(data.components[k])));
  for (const [section, entries] of index.components) for (const [key, entry] of entries) check(["components", section, key], entry, data.components[section][key]);
}

describe("indexJson (streamed build, pass 1)", () => {
  it("records every top-level, paths, webhooks and components entry with the full parse's positions, whatever the chunking", async () => {
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const got = await indexJson(chunked(SAMPLE, size));
      if (!got.ok) throw new Error(got.error.message);
      expect([...got.index.paths.keys()]).toEqual(["/a/ünï", "/b", "/c"]);
      expect([...got.index.components.get("schemas")!.keys()]).toEqual(["😀x", "Y"]);
      expectMatchesFullParse(SAMPLE, got.index);
    }
  });

  it("counts columns in UTF-16 code units after a BOM, as the full parse does", async () => {
    const text = `{"a😀": 1, "b": {"c": 2},\n "é": [], "paths": {"/x": {}}}`;
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    const got = await indexJson(chunked(bom, 2));
    if (!got.ok) throw new Error(got.error.message);
    expect(got.index.top.get("b")!.keyAt).toEqual({ line: 1, column: 12 });
    expect(got.index.top.get("é")!.keyAt).toEqual({ line: 2, column: 2 });
    expect(got.index.paths.get("/x")!.keyAt).toEqual(parseDocument(text).ok && (parseDocument(text) as any).doc.locate(["paths", "/x"]));
    expect(got.index.rootStart).toBe(3);
  });

  it("refuses truncated, broken and non-object documents with the line and column of the fault", async () => {
    const cases: [string, RegExp, number, number][] = [
      [SAMPLE.slice(0, 200), /end of the document/, 6, 43],
      [`{\n  "a": 1,\n  "b" 2\n}`, /expected ':'/, 3, 7],
      [`{\n  "a": [1 2]\n}`, /expected ',' or '\]'/, 2, 11],
      [`{\n  "a": tru\n}`, /Unexpected/, 2, 11],
      [`{"a": 1}}`, /Unexpected '}'/, 1, 9],
      [`{"a": 1,}`, /Unexpected '}'/, 1, 9],
      [`{"a": 1} {}`, /after the end/, 1, 10],
    ];
    for (const [text, message, line, column] of cases) {
      const got = await indexJson(chunked(text, 3));
      expect(got.ok, text).toBe(false);
      if (got.ok) continue;
      expect(got.error.message, text).toMatch(message);
      expect([got.error.line, got.error.column], text).toEqual([line, column]);
      expect(got.error.message).toContain(`(line ${line}, column ${column})`);
    }
    expect(await indexJson(chunked("[1]", 3))).toMatchObject({ ok: false, error: { code: "not-object" } });
    expect(await indexJson(chunked("  ", 3))).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(await indexJson(chunked(`{"a":${"[".repeat(600)}${"]".repeat(600)}}`, 64))).toMatchObject({ ok: false, error: { code: "too-deep" } });
  });
});
