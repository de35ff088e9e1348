import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildReference } from "../build";
import { MAX_SLICE_TARGET_CHARS, SliceTooDense } from "../model/slice-size";
import { expectSameModel, memorySource } from "../../../test/harness/byte-source";
import { buildStreamed } from "./build";

const CORPUS = new URL("../../../../shared/corpus", import.meta.url).pathname;

/**
 * A ~5 MB OpenAPI 3.1 JSON definition from a real one (UniCourt, 3 MB, 1,472 $refs), with what the streamed build
 * must get right: path items copied until it passes 5 MB (duplicate operationIds: slugs deduped across path
 * items, warnings), a path item $ref, a webhook, a callback, broken refs (one in a schema no operation reaches),
 * keys and text outside the BMP.
 */
export function fiveMegabyteDefinition(indent: number | undefined): Uint8Array {
  const doc = JSON.parse(readFileSync(`${CORPUS}/apis-guru-npm/api/unicourt.com.json`, "utf8"));
  doc.openapi = "3.1.0";
  doc.info.title = "UniCourt 😀 Énterprise";
  const original = Object.entries(doc.paths);
  const [firstPath, firstItem] = original[0] as [string, any];
  const op = Object.values(firstItem).find((v: any) => v && typeof v === "object" && v.responses) as any;
  op.responses["599"] = { description: "broken", content: { "application/json": { schema: { $ref: "#/components/schemas/DoesNotExist" } } } };
  op.callbacks = { onDone: { "{$request.body#/url}": { post: { operationId: "onDone😀", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } } }, responses: { "200": { description: "ok" } } } } } };
  doc.components.pathItems = { Shared: firstItem };
  doc.components.schemas.Orphan = { description: "no operation reaches it", properties: { gone: { $ref: "#/components/schemas/Gone" } } };
  doc.webhooks = { "caseUpdated": { post: { summary: "A case changed", requestBody: { $ref: "#/components/requestBodies/Missing" }, responses: { "200": { description: "ok" } } } } };
  const paths: Record<string, unknown> = { "/ünïcode/😀/{id}": { $ref: "#/components/pathItems/Shared" }, "/not-an-object": 42 };
  for (let copy = 0; ; copy++) {
    for (const [path, item] of original) paths[copy === 0 ? path : `/v${copy}${path}`] = item;
    if (copy >= 1 && JSON.stringify({ ...doc, paths }, null, indent).length > 5_000_000) break;
  }
  doc.paths = paths;
  void firstPath;
  return new TextEncoder().encode(JSON.stringify(doc, null, indent));
}

describe("buildStreamed: the same model as the whole-document build, without holding the document", () => {
  for (const indent of [2, undefined]) {
    it(`same operations, header, slices and issues (lines and columns exact) on a 5 MB definition (${indent ? "indented" : "one line"})`, async () => {
      const body = fiveMegabyteDefinition(indent);
      expect(body.byteLength).toBeGreaterThan(5_000_000);
      const full = buildReference({ body });
      const source = memorySource(body, 100_003);
      const streamed = await buildStreamed(source);
      await expectSameModel(full, streamed);
      if (!streamed.ok) throw new Error(streamed.message);
      expect(streamed.issues.length).toBeGreaterThan(100); // duplicate operationIds, broken refs, a path item that is not one
      // Range reads are coalesced into windows: far fewer than entries read.
      expect(source.reads).toBeLessThan(streamed.stats.pathItems);
    });
  }
});

describe("buildStreamed refusals", () => {
  const build = (text: string) => buildStreamed(memorySource(new TextEncoder().encode(text), 4096));
  it("answers what the whole build answers, with positions: paths not an object, not OpenAPI, broken JSON", async () => {
    expect(await build(`{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},\n "paths": [1]}`)).toMatchObject({ ok: false, status: 422, code: "invalid-paths", line: 2, column: 2 });
    expect(await build(`{"info": {"title": "t"}}`)).toMatchObject({ ok: false, status: 422 });
    expect(await build(`[1, 2]`)).toMatchObject({ ok: false, status: 422, code: "not-openapi" });
    expect(await build(`{"openapi": "3.1.0",\n "paths": {"/a": {"get": {}}`)).toMatchObject({ ok: false, status: 400, code: "syntax", line: 2, column: 29 });
  });

  it("refuses Swagger 2.0 (its upgrade needs the whole document) and a single entry past 16 MiB, with its line", async () => {
    expect(await build(`{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}`)).toMatchObject({ ok: false, status: 413, code: "too-large-swagger2" });
    const huge = `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},\n"paths": {\n  "/a": {"get": {"description": "${"x".repeat(17 * 1024 * 1024)}"}}}}`;
    const refused = await build(huge);
    expect(refused).toMatchObject({ ok: false, status: 413, code: "entry-too-large", line: 3, column: 3 });
  });
});

describe("buildStreamed: `$ref` targets from the build-wide table", () => {
  const encode = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc, null, 1));
  it("reaches what the whole build reaches: pointers through a $ref chain across entries, cycles, top-level members, security schemes' refs", async () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1", "x-shared": { note: { type: "string" } } },
      security: [{ key: [] }],
      paths: {
        "/a": {
          parameters: [{ $ref: "#/components/parameters/Id" }],
          get: {
            responses: {
              "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Alias/properties/child" } } } },
              "201": { description: "ok", content: { "application/json": { schema: { $ref: "#/info/x-shared/note" } } } },
              "202": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Missing" } } } },
            },
          },
        },
        "/b": { get: { responses: { "200": { $ref: "#/components/responses/Cycle" } } } },
      },
      components: {
        parameters: { Id: { name: "id", in: "path", required: true, schema: { $ref: "#/components/schemas/Node" } } },
        schemas: {
          Alias: { $ref: "#/components/schemas/Node" },
          Node: { type: "object", properties: { child: { $ref: "#/components/schemas/Node" }, leaf: { $ref: "#/components/schemas/Leaf" } } },
          Leaf: { type: "string", examples: [{ $ref: "#/components/schemas/NotARef" }] },
        },
        responses: { Cycle: { description: "c", content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } } },
        securitySchemes: { key: { type: "apiKey", name: "k", in: "header", "x-doc": { $ref: "#/components/schemas/Leaf" } } },
      },
    };
    const body = encode(doc);
    const full = buildReference({ body });
    if (!full.ok) throw new Error(full.message);
    const streamed = await buildStreamed(memorySource(body, 97));
    if (!streamed.ok) throw new Error(streamed.message);
    expect(streamed.operations).toEqual(full.operations);
    for (const op of full.operations) {
      const slice = await streamed.slice(op.slug);
      expect(slice, op.slug).toEqual(full.slice(op.slug));
      expect(JSON.stringify(slice)).toBe(JSON.stringify(full.slice(op.slug)));
    }
    // The chain `Alias/properties/child` resolves through Node, in another entry.
    expect(Object.keys((await streamed.slice(full.operations[0].slug)).refs)).toContain("#/components/schemas/Alias/properties/child");
    // Released once every slice is stored: slices are refused, what the publisher still needs stays.
    streamed.release();
    await expect(streamed.slice(full.operations[0].slug)).rejects.toThrow(/released/);
    expect(streamed.operations).toEqual(full.operations);
    expect(streamed.header).toEqual(full.header);
  });

  it("refuses a slice whose targets pass MAX_SLICE_TARGET_CHARS (SliceTooDense), as the whole build's weighing does", async () => {
    const schemas: Record<string, unknown> = {};
    const text = "d".repeat(100_000);
    for (let i = 0; i < 50; i++) schemas[`S${i}`] = { description: text, properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
    schemas.S50 = { type: "string" };
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/light": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/S49" } } } } } } },
        "/heavy": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/S0" } } } } } } },
      },
      components: { schemas },
    };
    const body = encode(doc);
    const full = buildReference({ body });
    if (!full.ok) throw new Error(full.message);
    expect(full.weigh()).toMatchObject({ over: true, overBy: "slice" });
    const streamed = await buildStreamed(memorySource(body));
    if (!streamed.ok) throw new Error(streamed.message);
    const [light, heavy] = streamed.operations;
    expect(Object.keys((await streamed.slice(light.slug)).refs)).toHaveLength(2);
    const refused = await streamed.slice(heavy.slug).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SliceTooDense);
    expect(refused).toMatchObject({ slug: heavy.slug });
    expect((refused as SliceTooDense).chars).toBeGreaterThan(MAX_SLICE_TARGET_CHARS);
  });
});
