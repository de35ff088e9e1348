import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildJsonModel } from "./json-model";
import type { VisualModel } from "./protocol";
import { buildModelForText, buildVisualModel, MAX_MODEL_NODES } from "./visual-model";
import { parseSource } from "./yaml-source";

const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;

/** Every JSON file of the corpus up to `maxBytes` (the `yaml` reference parse is what costs), sorted by path. */
function corpusJson(maxBytes: number): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (name.endsWith(".json") && st.size <= maxBytes) out.push(path);
    }
  };
  walk(CORPUS);
  return out;
}

/** Pointers a Visual view asks for: the fixed sections, the first operation, callback and schema, and the root. */
function pointersFor(reference: VisualModel): string[] {
  const first = (kind: string) => reference.outline.find((e) => e.kind === kind)?.pointer;
  const ops = reference.outline.filter((e) => e.kind === "operation");
  return ["/info", "/servers", "/host", "/tags", "/components/securitySchemes", "/securityDefinitions", first("operation"), ops[ops.length - 1]?.pointer, first("webhook"), first("callback"), first("schema"), "/nope/0", ""].filter((p): p is string => p !== undefined);
}

/** The model through `yaml` (the reference) and through the JSON reader, for the same pointers. */
function both(text: string, pointers?: string[]): { reference: VisualModel; json: VisualModel | undefined } {
  const source = parseSource(text);
  const asked = pointers ?? pointersFor(buildVisualModel(source, 3, []));
  return { reference: buildVisualModel(source, 3, asked), json: buildJsonModel(text, 3, asked, MAX_MODEL_NODES) };
}

/** Compares as the page receives them (structured clone drops nothing JSON cannot carry but `undefined`). */
const plain = (m: VisualModel | undefined) => JSON.parse(JSON.stringify(m ?? null)) as unknown;

describe("buildJsonModel against the yaml-based model", () => {
  // Up to 64 KB: about 250 files; the yaml reference parse of the larger ones would make this test slow.
  const files = corpusJson(64 * 1024);

  it("finds the corpus", () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it("gives the same outline, values, slots and lines on every JSON file of the corpus up to 64 KB", () => {
    let compared = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      try {
        JSON.parse(text);
      } catch {
        continue; // Not JSON: the yaml path answers (tested below).
      }
      const { reference, json } = both(text);
      expect(plain(json), file).toEqual(plain(reference));
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
  }, 120_000);

  it("gives the same model for other layouts of the same data: one line, tabs, CRLF line ends", () => {
    const text = readFileSync(join(CORPUS, "oai-spec/examples/v3.0/callback-example.json"), "utf8");
    const data = JSON.parse(text);
    const layouts = [JSON.stringify(data), JSON.stringify(data, null, "\t"), JSON.stringify(data, null, 4).replace(/\n/g, "\r\n"), ` \n${JSON.stringify(data, null, 1)}\n\n`];
    for (const layout of layouts) {
      const { reference, json } = both(layout);
      expect(reference.outline.some((e) => e.kind === "callback")).toBe(true);
      expect(plain(json)).toEqual(plain(reference));
    }
  });

  it("reads escapes, duplicate keys, odd scalars and odd shapes as yaml does", () => {
    const text = JSON.stringify(
      {
        openapi: "3.1.0",
        info: { title: 'Quote " back\\slash \u00e9 \ud83d\ude00 /', version: 1.0, n: [-0, 1e2, 12345678901234567890, 0.5, true, false, null], e: {}, a: [] },
        paths: {
          "/a~b/{c}": {
            get: { summary: 42, tags: ["x", 7, null, { t: 1 }, ""], deprecated: "true" },
            post: { summary: null, operationId: "postIt", deprecated: true, callbacks: { onEvent: { "{$request.body#/u}": { put: { operationId: "cb" } } }, bad: 3 } },
            parameters: [],
            delete: null,
          },
          "/b": 5,
        },
        webhooks: { hook: { post: { summary: "Hook" } } },
        components: { schemas: { "A/B": { type: "object" }, "k\"q": true }, securitySchemes: {} },
      },
      null,
      2,
    )
      // Duplicate keys: the first is the one `nodeAt` finds, the last the one a copied value keeps.
      .replace('"version": 1', '"version": "first",\n    "version": 1')
      .replace(/"\/b": 5/, '"/b": 5,\n    "/b": {"get": {}}');
    const pointers = ["/info", "/info/version", "/paths/~1a~0b~1{c}/post", "/paths/~1a~0b~1{c}/get/tags", "/components/schemas/A~1B", "/components/schemas/k\"q", "/info/n/3", "/info/n/x", "/paths/~1b"];
    const { reference, json } = both(text, pointers);
    // `delete: null` is still an operation (a form to fill in); the second "/b" adds its GET.
    expect(json?.outline.map((e) => e.label)).toEqual(["General", "Servers", "Tags", "Security", "42", "postIt", "DELETE /a~b/{c}", "GET /b", "Hook", "onEvent", "A/B", 'k"q']);
    expect(plain(json)).toEqual(plain(reference));
  });

  it("cuts a large request at the same node as the yaml-based model", () => {
    const schemas = Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`S${i}`, { type: "object", description: `Schema ${i}`, required: ["a"] }]));
    const text = JSON.stringify({ openapi: "3.0.3", info: { title: "Big", version: "1" }, paths: {}, components: { schemas } }, null, 2);
    const { reference, json } = both(text, ["", "/info"]);
    expect(Object.keys(reference.slots).length).toBeGreaterThan(MAX_MODEL_NODES / 2);
    expect(Object.keys(reference.slots).length).toBeLessThan(8000 * 3);
    expect(plain(json)).toEqual(plain(reference));
  }, 60_000);

  it("says a top level that is not an object is not a mapping", () => {
    const model = buildJsonModel("[1, 2]", 1, ["/0"], MAX_MODEL_NODES);
    expect(model?.parseError?.message).toBe("The document's top level is not a mapping");
    expect(model?.outline).toEqual([]);
  });

  it("answers again at the same text without reading it twice, and afresh for a changed text", () => {
    const text = '{"openapi": "3.1.0", "info": {"title": "T"}, "paths": {}}';
    expect(buildJsonModel(text, 1, ["/info"], MAX_MODEL_NODES)?.values["/info"]).toEqual({ title: "T" });
    expect(buildJsonModel(text, 1, ["/paths"], MAX_MODEL_NODES)?.values).toEqual({ "/paths": {} });
    const changed = text.replace('"T"', '"Title"');
    const model = buildJsonModel(changed, 2, ["/info/title"], MAX_MODEL_NODES);
    expect(model?.values["/info/title"]).toBe("Title");
    expect(changed.slice(model!.slots["/info/title"].from, model!.slots["/info/title"].to)).toBe('"Title"');
  });
});

describe("buildJsonModel after edits", () => {
  /** Whether `JSON.parse` takes the text (what decides the JSON path). */
  const valid = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };

  it("matches the yaml-based model after each of a series of edits in and out of strings (keys, summaries, tags, numbers)", () => {
    let text = readFileSync(join(CORPUS, "apis-guru-npm/api/ritc.io.json"), "utf8");
    expect(buildJsonModel(text, 0, ["/info"], MAX_MODEL_NODES)).toBeDefined();
    // A fixed pseudo-random sequence (mulberry32), so a failure replays.
    let seed = 12;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const letters = [...text.matchAll(/[a-z0-9{}]/g)].map((m) => m.index);
    let jsonAnswers = 0;
    for (let step = 1; step <= 40; step++) {
      const at = letters[Math.floor(random() * letters.length)] + Math.floor(random() * 3) - 1;
      const kind = random();
      // Mostly one character typed or deleted; sometimes a word, a line break or a quote.
      const insert = kind < 0.45 ? "q" : kind < 0.8 ? "" : kind < 0.9 ? "Word é " : kind < 0.95 ? "\n" : '"';
      const previous = text;
      text = text.slice(0, at) + insert + text.slice(at + (insert === "" ? 1 : 0));
      const source = parseSource(text);
      const reference = buildVisualModel(source, step, pointersFor(buildVisualModel(source, step, [])));
      const json = buildJsonModel(text, step, reference.pointers, MAX_MODEL_NODES);
      if (!valid(text)) {
        expect(json, `step ${step}`).toBeUndefined();
        // Undo, so the next edits start from valid JSON again.
        text = previous;
        continue;
      }
      jsonAnswers++;
      expect(plain(json), `step ${step}: ${JSON.stringify(insert)} at ${at}`).toEqual(plain(reference));
    }
    expect(jsonAnswers).toBeGreaterThan(20);
  }, 60_000);

  it("reads a text edited inside one string from the last reading, without JSON.parse, with the same lines", () => {
    const data = JSON.parse(readFileSync(join(CORPUS, "oai-spec/examples/v3.0/callback-example.json"), "utf8"));
    const text = JSON.stringify(data, null, 2);
    expect(buildJsonModel(text, 1, [], MAX_MODEL_NODES)).toBeDefined();
    // 40 characters typed into the title: every later offset moves, past several line starts' worth of columns.
    const edited = text.replace('"title": "', '"title": "' + "Forty characters typed into a title now. ");
    const parse = vi.spyOn(JSON, "parse");
    try {
      const json = buildJsonModel(edited, 2, ["/info", "/paths"], MAX_MODEL_NODES);
      expect(parse.mock.calls.some(([arg]) => typeof arg === "string" && arg.length >= edited.length / 2)).toBe(false);
      parse.mockRestore();
      const reference = buildVisualModel(parseSource(edited), 2, ["/info", "/paths"]);
      expect(plain(json)).toEqual(plain(reference));
    } finally {
      parse.mockRestore();
    }
  });

  it("reads a text edited outside strings (a number, an item added to a list) from the last reading, without JSON.parse of the text", () => {
    const text = JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1" }, paths: { "/p": { get: { summary: "S", tags: ["a"], parameters: [{ name: "n", in: "query", schema: { maximum: 10 } }] } } } }, null, 2);
    expect(buildJsonModel(text, 1, ["/paths"], MAX_MODEL_NODES)).toBeDefined();
    const edits = [text.replace('"maximum": 10', '"maximum": 1000'), text.replace('"a"\n', '"a", "b"\n').replace('"a"]', '"a", "b"]')];
    for (const [i, edited] of edits.entries()) {
      expect(buildJsonModel(text, 10 + i, [], MAX_MODEL_NODES)).toBeDefined(); // back to the first text
      const parse = vi.spyOn(JSON, "parse");
      try {
        const json = buildJsonModel(edited, 20 + i, ["/paths"], MAX_MODEL_NODES);
        expect(parse.mock.calls.some(([arg]) => typeof arg === "string" && arg.length >= edited.length / 2)).toBe(false);
        parse.mockRestore();
        expect(plain(json)).toEqual(plain(buildVisualModel(parseSource(edited), 20 + i, ["/paths"])));
      } finally {
        parse.mockRestore();
      }
    }
  });

  it("keeps an edit next to an escape sequence out of the in-string shortcut", () => {
    const text = '{"openapi": "3.1.0", "info": {"title": "a\\nb \\u00e9", "version": "1"}, "paths": {"/p": {"get": {"summary": "S"}}}}';
    expect(buildJsonModel(text, 1, ["/info"], MAX_MODEL_NODES)?.values["/info"]).toEqual({ title: "a\nb é", version: "1" });
    // Typed right after the backslash: the escape becomes invalid.
    const broken = text.replace("a\\nb", "a\\qnb");
    expect(buildJsonModel(broken, 2, ["/info"], MAX_MODEL_NODES)).toBeUndefined();
    // Typed inside \u00e9's digits: invalid too.
    const broken2 = text.replace("\\u00e9", "\\u0q0e9");
    expect(buildJsonModel(text, 3, ["/info"], MAX_MODEL_NODES)).toBeDefined();
    expect(buildJsonModel(broken2, 4, ["/info"], MAX_MODEL_NODES)).toBeUndefined();
    // After the escape, in the same string: still valid, and read as such.
    const fine = text.replace("nb \\u00e9", "nb x\\u00e9");
    expect(buildJsonModel(text, 5, ["/info"], MAX_MODEL_NODES)).toBeDefined();
    expect(buildJsonModel(fine, 6, ["/info/title"], MAX_MODEL_NODES)?.values["/info/title"]).toBe("a\nb xé");
    // A key edited in place renames the outline entry and moves the summary's slot.
    const renamed = fine.replace('"/p"', '"/pets"').replace('"S"', '"Sum"');
    const model = buildJsonModel(renamed, 7, ["/paths/~1pets/get/summary"], MAX_MODEL_NODES);
    expect(model?.outline.find((e) => e.kind === "operation")).toMatchObject({ pointer: "/paths/~1pets/get", path: "/pets", label: "Sum" });
    const slot = model!.slots["/paths/~1pets/get/summary"];
    expect(renamed.slice(slot.from, slot.to)).toBe('"Sum"');
  });
});

describe("buildModelForText", () => {
  it("reads valid JSON without parsing it with yaml", () => {
    let parsed = 0;
    const text = '{"swagger": "2.0", "info": {"title": "T", "version": "1"}, "host": "h", "paths": {}}';
    const model = buildModelForText(text, 4, ["/host"], () => (parsed++, parseSource(text)));
    expect(parsed).toBe(0);
    expect(model).toMatchObject({ version: 4, format: "json", specVersion: "2.0", values: { "/host": "h" } });
  });

  it("goes through yaml for YAML and for text that is not valid JSON, which reports its line", () => {
    const yamlText = "openapi: 3.1.0\ninfo:\n  title: Y\n";
    expect(buildModelForText(yamlText, 1, ["/info"], () => parseSource(yamlText)).values["/info"]).toEqual({ title: "Y" });
    const broken = '{\n  "openapi": "3.1.0",\n  "info": {"title": "T",}\n  "paths": {}\n}';
    let parsed = 0;
    const model = buildModelForText(broken, 1, ["/info"], () => (parsed++, parseSource(broken)));
    expect(parsed).toBe(1);
    expect(model.format).toBe("json");
    expect(model.parseError?.line).toBeGreaterThanOrEqual(3);
  });
});
