import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { buildReference } from "../build";
import { expectSameModel, memorySource } from "../../../test/harness/byte-source";
import { buildStreamed } from "./build";
import { indexYaml } from "./yaml-index";

const CORPUS = new URL("../../../../shared/corpus", import.meta.url).pathname;
const enc = new TextEncoder();

/**
 * A ~5 MB OpenAPI 3.1 YAML definition converted from a real JSON one (UniCourt, 3 MB) with the `yaml` library, as
 * build.test.ts's JSON one (copied path items: duplicate operationIds; a path item $ref, a webhook, a callback,
 * broken refs, text outside the BMP), plus what YAML writers do: quoted keys at every level, comments between and
 * inside entries, block scalars (multi-line descriptions), an anchor and its alias inside one component, CRLF line
 * ends when `crlf`. `copies`: how many times the path items are written (3: past 5 MB).
 */
function fiveMegabyteYaml(crlf = false, copies = 3): Uint8Array {
  const doc = JSON.parse(readFileSync(`${CORPUS}/apis-guru-npm/api/unicourt.com.json`, "utf8"));
  doc.openapi = "3.1.0";
  doc.info.title = "UniCourt 😀 Énterprise";
  doc.info.description = "Line one of the description.\n\nLine three: `code`, and a # that is no comment.\n  indented line\n";
  const original = Object.entries(doc.paths);
  const [, firstItem] = original[0] as [string, any];
  const op = Object.values(firstItem).find((v: any) => v && typeof v === "object" && v.responses) as any;
  op.responses["599"] = { description: "broken", content: { "application/json": { schema: { $ref: "#/components/schemas/DoesNotExist" } } } };
  op.responses["598"] = { description: "anchored\nand multi-line", content: { "application/json": { schema: { $ref: "#/components/schemas/Anchored" } } } };
  op.callbacks = { onDone: { "{$request.body#/url}": { post: { operationId: "onDone😀", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } } }, responses: { "200": { description: "ok" } } } } } };
  doc.components.pathItems = { Shared: firstItem };
  doc.components.schemas.Orphan = { description: "no operation reaches it", properties: { gone: { $ref: "#/components/schemas/Gone" } } };
  doc.webhooks = { caseUpdated: { post: { summary: "A case changed", requestBody: { $ref: "#/components/requestBodies/Missing" }, responses: { "200": { description: "ok" } } } } };
  const paths: Record<string, unknown> = { "/ünïcode/😀/{id}": { $ref: "#/components/pathItems/Shared" }, "/not-an-object": 42 };
  for (let copy = 0; copy < copies; copy++) for (const [path, item] of original) paths[copy === 0 ? path : `/v${copy}${path}`] = item;
  doc.paths = paths;
  // No aliases across entries (copies share objects): the test adds one anchor of its own, inside one component.
  let text = stringify(doc, { indent: 2, lineWidth: 0, aliasDuplicateObjects: false });
  text = text.replace(/^ {2}schemas:\n/m, "  schemas:\n    # an anchor and its alias inside one component\n    Anchored:\n      properties:\n        a: &shared\n          type: string\n          description: shared\n        b: *shared\n");
  let n = 0;
  // Quoted path keys (every third), and comments at column 0 and inside entries.
  text = text.replace(/^ {2}(\/[^\n"\\]*):$/gm, (line, key: string) => (n++ % 3 === 0 ? `# path ${n}\n  "${key}": # quoted\n` : `  ${key}:`).replace(/\n$/, ""));
  text = text.replace(/^( {6})(responses):$/gm, "$1# the responses\n$1$2:");
  text = `# A YAML definition past the streamed threshold\n---\n${text}`;
  if (crlf) text = text.replace(/\n/g, "\r\n");
  return enc.encode(text);
}

describe("buildStreamed on YAML: the same model as the whole-document build, entry by entry", () => {
  // The CRLF run uses one copy of the path items (2 MB): the line ends are what it checks.
  for (const crlf of [false, true]) {
    it(`same operations, header, slices and issues (lines and columns exact) on a ${crlf ? "2 MB YAML definition with CRLF line ends" : "5 MB YAML definition"}`, { timeout: 120_000 }, async () => {
      const body = fiveMegabyteYaml(crlf, crlf ? 1 : 3);
      expect(body.byteLength).toBeGreaterThan(crlf ? 2_000_000 : 5_000_000);
      const text = new TextDecoder().decode(body);
      expect(text).toContain('"/');
      expect(text).toMatch(/description: \|/);
      const full = buildReference({ body });
      const source = memorySource(body, 100_003);
      const streamed = await buildStreamed(source, undefined, "yaml");
      await expectSameModel(full, streamed);
      if (!streamed.ok) throw new Error(streamed.message);
      expect(streamed.issues.length).toBeGreaterThan(crlf ? 5 : 100);
      expect(source.reads).toBeLessThan(streamed.stats.pathItems);
    });
  }
});

describe("buildStreamed on YAML: each entry parsed once", () => {
  const head = "openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\n";
  // Each path item ~50 KB: 60 of them are past the 2 M characters of parsed path items the build holds.
  const item = (n: number, extra = "") => `  /p${n}:\n    get:\n      operationId: op${n}\n      description: "${"lorem ipsum ".repeat(4000)}${n}"\n      parameters:\n        - {name: "a${n}", in: query, schema: {type: integer, default: ${n}, example: 0x1F}}\n      responses:\n        "200":\n          description: &d "ok ${n}"\n          headers: {X-A: {description: *d, schema: {type: string}}}\n${extra}`;

  /** 60 path items (`extra(n)` appended to item n; over 2 MB, past what the build keeps parsed), built streamed. */
  const buildSixty = async (extra: (n: number) => string) => {
    const body = enc.encode(`${head}paths:\n${Array.from({ length: 60 }, (_, n) => item(n, extra(n))).join("")}`);
    expect(body.byteLength).toBeGreaterThan(2 * 1024 * 1024);
    const streamed = await buildStreamed(memorySource(body, 512), undefined, "yaml");
    if (!streamed.ok) throw new Error(streamed.message);
    return { body, streamed };
  };

  it("the slices parse no text again: every path item is kept from its first parse, as the same values", async () => {
    // Values JSON spells the same way (a `__proto__` key, numeric keys, an alias inside an entry, unicode).
    const odd = "      x-odd:\n        __proto__: {polluted: true}\n        200: two hundred\n        null: ~\n        text: \"é😀\"\n";
    const { body, streamed } = await buildSixty((n) => (n === 7 ? odd : ""));
    const parsedByBuild = streamed.stats.textParses;
    expect(parsedByBuild).toBeGreaterThanOrEqual(62); // 60 path items, openapi, info
    await expectSameModel(buildReference({ body }), streamed);
    expect(streamed.stats.textParses).toBe(parsedByBuild);
    expect(({}) as Record<string, unknown>).not.toHaveProperty("polluted");
  });

  it("values JSON cannot carry (NaN, ±Infinity, -0) are parsed again from the text, exactly", async () => {
    const special = "      x-numbers: {nan: .nan, inf: .inf, minf: -.Inf, big: 1e999, negzero: -0, negzerof: -0.0}\n";
    const { body, streamed } = await buildSixty((n) => (n % 3 === 0 ? special : ""));
    const parsedByBuild = streamed.stats.textParses;
    await expectSameModel(buildReference({ body }), streamed);
    // Only the 20 path items holding such values are parsed again (those the build no longer holds).
    expect(streamed.stats.textParses - parsedByBuild).toBeGreaterThan(0);
    expect(streamed.stats.textParses - parsedByBuild).toBeLessThanOrEqual(20);
    const slice = await streamed.slice(streamed.operations[0].slug);
    const numbers = (slice.operation as Record<string, Record<string, number>>)["x-numbers"];
    expect(numbers.nan).toBeNaN();
    expect(numbers.inf).toBe(Infinity);
    expect(numbers.minf).toBe(-Infinity);
    expect(numbers.big).toBe(Infinity);
    expect(Object.is(numbers.negzero, -0)).toBe(true);
    expect(Object.is(numbers.negzerof, -0)).toBe(true);
  });

  it("a member too large to keep is parsed for its errors only, its warnings still reported at their lines", async () => {
    const entries = Array.from({ length: 8600 }, (_, i) => `  k${i}:\n    text: "${"x".repeat(1000)}"\n${i === 4000 ? "    text: duplicated\n" : ""}`);
    const text = `${head}x-big:\n${entries.join("")}paths:\n${item(1)}`;
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    const body = enc.encode(text);
    const streamed = await buildStreamed(memorySource(body, 1 << 20), undefined, "yaml");
    if (!streamed.ok) throw new Error(streamed.message);
    expect(streamed.top).not.toHaveProperty("x-big");
    const dupes = streamed.issues.filter((i) => i.rule === "duplicate-key");
    expect(dupes.map((i) => [i.line, i.column])).toEqual([[5 + 2 * 4001 + 1, 5]]);
    const whole = buildReference({ body });
    if (!whole.ok) throw new Error(whole.message);
    expect(whole.issues.filter((i) => i.rule === "duplicate-key").map((i) => [i.line, i.column])).toEqual(dupes.map((i) => [i.line, i.column]));
  }, 60_000);
});

describe("indexYaml", () => {
  const index = async (text: string, chunk = 7) => indexYaml(memorySource(enc.encode(text), chunk).stream());

  it("indexes top-level members, paths, webhooks and components entries with their keys' positions and byte ranges", async () => {
    const text = "\uFEFFopenapi: 3.1.0\ninfo:\n  title: t\npaths:\n  # a comment\n  /a:\n    get: {}\n  '/b''s':\n    get: {}\ncomponents:\n    schemas:\n        A: {type: object}\n        \"B\\u00e9\":\n          type: string\n    responses: {}\ntags:\n- name: x\n";
    const out = await index(text);
    if (!out.ok) throw new Error(out.error.message);
    const bytes = enc.encode(text);
    const textOf = (e: { start: number; end: number }) => new TextDecoder().decode(bytes.subarray(e.start, e.end));
    expect([...out.index.top.keys()]).toEqual(["openapi", "info", "paths", "components", "tags"]);
    expect([...out.index.paths.keys()]).toEqual(["/a", "/b's"]);
    expect(out.index.paths.get("/b's")).toMatchObject({ keyAt: { line: 8, column: 3 } });
    expect(textOf(out.index.paths.get("/a")!)).toBe("  /a:\n    get: {}\n");
    expect([...out.index.components.keys()]).toEqual(["schemas", "responses"]);
    expect([...out.index.components.get("schemas")!.keys()]).toEqual(["A", "Bé"]);
    expect(out.index.components.get("schemas")!.get("Bé")).toMatchObject({ keyAt: { line: 13, column: 9 } });
    expect(textOf(out.index.top.get("tags")!)).toBe("tags:\n- name: x\n");
    expect(out.index.top.get("openapi")!.start).toBe(3); // after the BOM
  });

  it("refuses with 413's reason and the line what it cannot split safely", async () => {
    const base = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n";
    const cases: [string, RegExp, number][] = [
      [`${base}paths: {"/a": {get: {}}}\n`, /flow style/, 3],
      [`${base}paths:\n  ? /a\n  : {}\n`, /complex key/, 4],
      [`${base}paths: &p\n  /a: {}\n`, /anchor, alias or tag/, 3],
      [`${base}components:\n  schemas: !!map\n    A: {}\n`, /anchor, alias or tag/, 4],
      [`${base}paths:\n  <<: {}\n`, /merge key/, 4],
      [`${base}paths:\n\t/a: {}\n`, /tab/, 4],
      [`${base}paths:\n    /a: {}\n  /b: {}\n`, /indentation 2/, 5],
      [`${base}paths: |\n  /a: {}\n`, /block scalar/, 3],
      [`%YAML 1.2\n---\n${base}`, /directive/, 1],
      [`${base}webhooks:\n  - a\n`, /sequence as `webhooks`/, 4],
      [`${base}components:\n  schemas:\n    - a\n`, /sequence as `components.schemas`/, 5],
      [`${base}description: "a\nb c"\n`, /not a `key:` line/, 4],
    ];
    for (const [text, why, line] of cases) {
      const out = await index(text);
      expect(out.ok, text).toBe(false);
      if (out.ok) continue;
      expect(out.error, text).toMatchObject({ code: "not-streamable", line });
      expect(out.error.message, text).toMatch(why);
    }
  });

  it("answers a second document, a sequence at the top and an empty text as the whole parse does", async () => {
    expect(await index("openapi: 3.1.0\n---\nb: 1\n")).toMatchObject({ ok: false, error: { code: "syntax", line: 2 } });
    expect(await index("- a\n- b\n")).toMatchObject({ ok: false, error: { code: "not-object" } });
    expect(await index("# nothing\n\n")).toMatchObject({ ok: false, error: { code: "empty" } });
  });
});

describe("buildStreamed on YAML: refusals", () => {
  const build = (text: string) => buildStreamed(memorySource(enc.encode(text), 4096), undefined, "yaml");
  const head = "openapi: 3.1.0\ninfo:\n  title: t\n  version: '1'\n";

  it("a quoted string continued at column 0 (a libyaml leniency the whole parse repairs) is refused, never split wrong", async () => {
    const text = `${head}description: "a\nb: c"\npaths: {}\n`;
    expect(await build(text)).toMatchObject({ ok: false, status: 400, code: "syntax" });
  });

  it("broken YAML inside an entry: 400 with its line, as the whole parse gives it", async () => {
    const text = `${head}paths:\n  /a:\n    get:\n      responses: {}\n  /b:\n    get:\n      summary: "unclosed\n      responses: {}\n`;
    const whole = buildReference({ body: enc.encode(text) });
    expect(whole).toMatchObject({ ok: false, status: 400 });
    const streamed = await build(text);
    expect(streamed).toMatchObject({ ok: false, status: 400, code: "syntax", line: (whole as { line: number }).line });
    expect((streamed as { message: string }).message).toContain(`line ${(whole as { line: number }).line}`);
  });

  it("an alias to another entry's anchor: 413 saying why; inside one entry: built", async () => {
    const across = `${head}paths:\n  /a:\n    get: &op\n      responses: {}\n  /b:\n    get: *op\n`;
    expect(await build(across)).toMatchObject({ ok: false, status: 413, code: "yaml-not-streamable", line: 10 });
    const inside = `${head}paths:\n  /a:\n    get: &op\n      responses: {}\n    put: *op\n`;
    const built = await build(inside);
    expect(built.ok && built.operations.map((o) => o.method)).toEqual(["get", "put"]);
  });

  it("paths that is not a mapping: 422 at its key, as for JSON; a flow-style paths: 413", async () => {
    expect(await build(`${head}paths:\n- 1\n`)).toMatchObject({ ok: false, status: 422, code: "invalid-paths", line: 5, column: 1 });
    expect(await build(`${head}paths: {"/a": {}}\n`)).toMatchObject({ ok: false, status: 413, code: "yaml-not-streamable", line: 5 });
  });

  it("duplicate keys at the indexed levels and inside entries are warnings at their lines, the last one kept", async () => {
    const text = `${head}paths:\n  /a:\n    get:\n      summary: one\n      summary: two\n      responses: {}\n  /a:\n    post:\n      responses: {}\n`;
    const streamed = await build(text);
    if (!streamed.ok) throw new Error(streamed.message);
    expect(streamed.operations.map((o) => o.method)).toEqual(["post"]);
    const whole = buildReference({ body: enc.encode(text) });
    if (!whole.ok) throw new Error(whole.message);
    const dupes = (issues: { rule: string; line?: number }[]) => issues.filter((i) => i.rule === "duplicate-key").map((i) => i.line).sort((a, b) => a! - b!);
    expect(dupes(streamed.issues)).toEqual(dupes(whole.issues));
    expect(dupes(streamed.issues)).toEqual([9, 11]);
    // The replaced entry is still parsed: its syntax errors count.
    expect(await build(`${head}info: {title: "unclosed}\n${head}paths: {}\n`)).toMatchObject({ ok: false, status: 400, code: "syntax" });
  });

  it("a top-level member too large to keep (past 8 MiB) is still parsed, entry by entry: its syntax errors are 400 with their line", async () => {
    const entries = Array.from({ length: 9000 }, (_, i) => `  k${i}: "${"x".repeat(1000)}"\n`);
    entries[6000] = `  k6000: "unclosed\n  k6000b: [\n`;
    const broken = `${head}x-big:\n${entries.join("")}paths: {}\n`;
    expect(broken.length).toBeGreaterThan(8 * 1024 * 1024);
    const refused = await build(broken);
    expect(refused).toMatchObject({ ok: false, status: 400, code: "syntax" });
    expect((refused as { line: number }).line).toBeGreaterThanOrEqual(6006);
  }, 60_000);
});

describe("buildStreamed on YAML: never a wrong build", () => {
  it("on 60 mutations of the demo definition (indentation, tabs, stray quotes, duplicated or deleted lines, anchors and aliases, complex keys, block scalars): the whole build's model, or a refusal; a refusal whenever the whole build refuses", async () => {
    const text = readFileSync(new URL("../../../demo/definition.yaml", import.meta.url), "utf8");
    let seed = 12345;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const mutations: ((l: string[]) => void)[] = [
      (l) => { const i = rnd(l.length); l[i] = l[i].slice(1); },
      (l) => { const i = rnd(l.length); l[i] = ` ${l[i]}`; },
      (l) => { const i = rnd(l.length); l[i] = l[i].replace(/^( *)/, "$1\t"); },
      (l) => { const i = rnd(l.length); l.splice(i, 0, l[i]); },
      (l) => void l.splice(rnd(l.length), 1),
      (l) => { const i = rnd(l.length); const j = rnd(Math.max(1, l[i].length)); l[i] = `${l[i].slice(0, j)}"${l[i].slice(j)}`; },
      (l) => { const i = rnd(l.length); l[i] = l[i].replace(/: /, ": &a "); const j = rnd(l.length); l[j] = l[j].replace(/: .*/, ": *a"); },
      (l) => { const i = rnd(l.length); l[i] = l[i].replace(/^( *)(\S)/, "$1? $2"); },
      (l) => { const i = rnd(l.length); l[i] = l[i].replace(/: (.*)$/, ": |\n$1"); },
    ];
    const outcomes = new Map<string, number>();
    for (let m = 0; m < 60; m++) {
      const lines = text.split("\n");
      mutations[rnd(mutations.length)](lines);
      const body = enc.encode(lines.join("\n"));
      const whole = buildReference({ body });
      const streamed = await buildStreamed(memorySource(body, 1000), undefined, "yaml");
      const what = `${whole.ok ? "ok" : whole.status} → ${streamed.ok ? "ok" : streamed.status}`;
      outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
      if (!whole.ok) expect(streamed.ok, `mutation ${m}: the whole build refused it`).toBe(false);
      else if (streamed.ok) {
        expect(streamed.operations, `mutation ${m}`).toEqual(whole.operations);
        expect(streamed.header, `mutation ${m}`).toEqual(whole.header);
        for (const op of whole.operations) expect(await streamed.slice(op.slug), `mutation ${m} ${op.slug}`).toEqual(whole.slice(op.slug));
      } else expect(streamed.status, `mutation ${m}: ${streamed.message}`).toBe(413);
    }
    // Most mutations build the same model or are refused by both; the line reader refuses a few the whole parse accepts.
    expect(outcomes.get("ok → ok")).toBeGreaterThan(15);
    expect(outcomes.get("400 → 400")).toBeGreaterThan(5);
  }, 120_000);
});

