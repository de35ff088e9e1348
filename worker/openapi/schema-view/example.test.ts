import { describe, expect, it } from "vitest";
import { viewSchema } from "./build-view";
import { exampleFromView } from "./example";
import { mediaTypeExample } from "./media-example";
import { loadCorpus } from "./testing/corpus";
import { refsFor } from "./testing/doc-fixtures";

describe("exampleFromView", () => {
  it("omits the cyclic property instead of recursing (circular.yaml)", () => {
    const doc = loadCorpus("readme-oas-examples/3.0/yaml/circular.yaml");
    const v = viewSchema({ $ref: "#/components/schemas/ErrorMessage" }, refsFor(doc, doc.paths));
    expect(exampleFromView(v)).toEqual({ statusCode: 0, error: "string", canBeRetried: "Unknown", detailedErrorCode: 0 });
  });

  it("follows the first variant and sets its discriminator value", () => {
    const doc = loadCorpus("readme-oas-examples/3.0/yaml/discriminators.yaml");
    const refs = refsFor(doc, doc.paths);
    const paths = doc.paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>;
    const v = viewSchema(paths["/discriminator-with-mapping"].patch.requestBody.content["application/json"].schema, refs);
    expect(exampleFromView(v)).toEqual({ discrim: "Option One", optionone: 0 });
    expect(exampleFromView(v, { pickVariant: () => 1 })).toEqual({ discrim: "Option Two", optiontwo: "string" });
  });

  it("prefers const, then examples, then default, then enum; respects bounds and formats", () => {
    const v = viewSchema({
      type: "object",
      properties: {
        c: { const: "fixed", examples: ["no"] }, e: { type: "string", example: "ex", default: "d" }, d: { type: "integer", default: 7 },
        n: { type: "string", enum: ["a", "b"] }, i: { type: "integer", minimum: 3, multipleOf: 5 }, x: { type: "number", exclusiveMinimum: 1.5 },
        when: { type: "string", format: "date-time" }, short: { type: "string", maxLength: 3 }, list: { type: "array", items: { type: "boolean" } },
        map: { type: "object", additionalProperties: { type: "integer" } }, nothing: { type: "null" },
      },
    }, {});
    expect(exampleFromView(v)).toEqual({
      c: "fixed", e: "ex", d: 7, n: "a", i: 5, x: 2, when: "2024-01-01T00:00:00Z", short: "str", list: [true], map: { key: 0 }, nothing: null,
    });
  });

  it("leaves readOnly properties out of request examples because the view does", () => {
    const schema = { type: "object", properties: { id: { type: "integer", readOnly: true }, name: { type: "string" }, pw: { type: "string", writeOnly: true } } };
    expect(exampleFromView(viewSchema(schema, {}, { mode: "request" }))).toEqual({ name: "string", pw: "string" });
    expect(exampleFromView(viewSchema(schema, {}, { mode: "response" }))).toEqual({ id: 0, name: "string" });
  });
});

describe("mediaTypeExample", () => {
  it("uses the definition's named examples (through $ref) before generating", () => {
    const refs = { "#/components/examples/Cat": { summary: "A cat", value: { name: "Tom" } } };
    const media = { schema: { type: "object" }, examples: { cat: { $ref: "#/components/examples/Cat" }, remote: { externalValue: "https://x/y.json" } } };
    expect(mediaTypeExample(media, viewSchema(media.schema, refs), refs)).toEqual([
      { name: "cat", summary: "A cat", value: { name: "Tom" }, generated: false },
      { name: "remote", externalValue: "https://x/y.json", generated: false },
    ]);
  });

  it("falls back to a generated example", () => {
    const media = { schema: { type: "array", items: { type: "string", format: "uuid" } } };
    expect(mediaTypeExample(media, viewSchema(media.schema, {}), {})).toEqual([
      { name: "generated", value: ["3fa85f64-5717-4562-b3fc-2c963f66afa6"], generated: true },
    ]);
  });
});
