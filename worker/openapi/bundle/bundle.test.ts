import { describe, expect, it } from "vitest";
import { parseDocument } from "../parse";
import { bundleDocument } from "./bundle";
import type { LoadedFile } from "./bundle";

function files(map: Record<string, string>) {
  return (path: string): LoadedFile | undefined => {
    if (!(path in map)) return undefined;
    if (!/\.(ya?ml|json)$/.test(path)) return { kind: "text", text: map[path] };
    const parsed = parseDocument(map[path], { requireObject: false });
    return parsed.ok ? { kind: "data", data: parsed.doc.data, locate: parsed.doc.locate } : { kind: "error", message: parsed.error.message };
  };
}

function bundle(map: Record<string, string>, rootPath = "openapi.yaml", swagger2 = false) {
  const root = parseDocument(map[rootPath]);
  if (!root.ok) throw new Error(root.error.message);
  return bundleDocument({ rootPath, rootData: root.doc.data as Record<string, unknown>, load: files(map), swagger2 });
}

describe("bundleDocument", () => {
  it("hoists external schemas, parameters and responses into components under their names", () => {
    const result = bundle({
      "openapi.yaml": [
        "openapi: 3.1.0",
        "paths:",
        "  /pets:",
        "    get:",
        "      parameters: [{$ref: 'params.yaml#/limit'}]",
        "      responses:",
        "        '200': {content: {application/json: {schema: {$ref: 'schemas/Pet.yaml'}}}}",
        "        default: {$ref: './responses.yaml#/Error'}",
      ].join("\n"),
      "params.yaml": "limit: {name: limit, in: query}\n",
      "schemas/Pet.yaml": "type: object\nproperties:\n  tag: {$ref: '#/$defs/Tag'}\n  owner: {$ref: '../schemas/Pet.yaml'}\n$defs:\n  Tag: {type: string}\n",
      "responses.yaml": "Error: {description: error, content: {application/json: {schema: {$ref: 'schemas/Pet.yaml'}}}}\n",
    });
    expect(result.issues).toEqual([]);
    expect(result.document).toEqual({
      openapi: "3.1.0",
      paths: {
        "/pets": {
          get: {
            parameters: [{ $ref: "#/components/parameters/limit" }],
            responses: {
              "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
              default: { $ref: "#/components/responses/Error" },
            },
          },
        },
      },
      components: {
        parameters: { limit: { name: "limit", in: "query" } },
        schemas: {
          Pet: { type: "object", properties: { tag: { $ref: "#/components/schemas/Tag" }, owner: { $ref: "#/components/schemas/Pet" } }, $defs: { Tag: { type: "string" } } },
          Tag: { type: "string" },
        },
        responses: { Error: { description: "error", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } } },
      },
    });
    expect(result.origins.get("#/components/schemas/Tag")).toEqual({ file: "schemas/Pet.yaml", path: ["$defs", "Tag"] });
  });

  it("replaces component entries in place, inlines path items and Markdown, keeps names unique", () => {
    const result = bundle({
      "openapi.yaml": [
        "openapi: 3.0.3",
        "info: {description: {$ref: 'docs/intro.md'}}",
        "paths:",
        "  /a: {$ref: 'paths/a.yaml'}",
        "components:",
        "  schemas:",
        "    Pet: {$ref: 'models/pet.yaml'}",
        "    Tag: {type: string}",
      ].join("\n"),
      "docs/intro.md": "# Hello",
      "paths/a.yaml": "get: {responses: {'200': {content: {x/y: {schema: {$ref: '../models/tag.yaml'}}}}}}\npost: {requestBody: {$ref: '../models/pet.yaml'}}\n",
      "models/pet.yaml": "type: object\n",
      "models/tag.yaml": "type: integer\n",
    });
    expect(result.document.info).toEqual({ description: "# Hello" });
    expect(result.document.paths).toEqual({
      "/a": {
        get: { responses: { "200": { content: { "x/y": { schema: { $ref: "#/components/schemas/tag" } } } } } },
        post: { requestBody: { $ref: "#/components/schemas/Pet" } },
      },
    });
    expect(result.document.components).toEqual({ schemas: { Pet: { type: "object" }, Tag: { type: "string" }, tag: { type: "integer" } } });
    expect(result.origins.get("#/paths/~1a")).toEqual({ file: "paths/a.yaml", path: [] });
  });

  it("reports missing files and targets with the referencing file, and leaves remote refs alone", () => {
    const result = bundle({
      "openapi.yaml": "openapi: 3.1.0\npaths:\n  /a: {$ref: 'paths/a.yaml'}\n",
      "paths/a.yaml": "get:\n  parameters:\n    - $ref: 'nope.yaml'\n    - $ref: '../openapi.yaml#/nothing'\n    - $ref: 'https://example.com/p.yaml'\n    - $ref: '../../outside.yaml'\n",
    });
    expect(result.issues.map((i) => [i.file, i.path, i.message])).toEqual([
      ["paths/a.yaml", ["get", "parameters", 0, "$ref"], 'Cannot resolve "nope.yaml": file "paths/nope.yaml" is not in the upload'],
      ["paths/a.yaml", ["get", "parameters", 3, "$ref"], '"../../outside.yaml" points outside the uploaded archive; nothing outside the upload is read'],
    ]);
    expect((result.document.paths as any)["/a"].get.parameters).toEqual([
      { $ref: "nope.yaml" },
      { $ref: "#/nothing" },
      { $ref: "https://example.com/p.yaml" },
      { $ref: "../../outside.yaml" },
    ]);
  });

  it("follows file refs inside examples quietly, leaves local refs in examples as data", () => {
    const result = bundle({
      "openapi.yaml": "openapi: 3.1.0\ncomponents:\n  examples:\n    A: {value: {$ref: 'ex.yaml#/a'}}\n    B: {value: {$ref: '#/literal'}}\n    C: {value: {$ref: 'missing.yaml'}}\n",
      "ex.yaml": "a: {id: 1}\n",
    });
    expect(result.issues).toEqual([]);
    expect(result.document.components).toEqual({ examples: { A: { value: { id: 1 } }, B: { value: { $ref: "#/literal" } }, C: { value: { $ref: "missing.yaml" } } } });
  });

  it("lays out Swagger 2.0 targets in definitions and parameters", () => {
    const result = bundle(
      {
        "spec/swagger.yaml": "swagger: '2.0'\npaths:\n  /p:\n    get:\n      parameters: [{$ref: 'parameters.yaml#/q'}]\n      responses: {'200': {schema: {$ref: '../common/Error.yaml'}}}\n",
        "spec/parameters.yaml": "q: {name: q, in: query, type: string}\n",
        "common/Error.yaml": "type: object\n",
      },
      "spec/swagger.yaml",
      true,
    );
    expect(result.document).toMatchObject({
      definitions: { Error: { type: "object" } },
      parameters: { q: { name: "q", in: "query", type: "string" } },
      paths: { "/p": { get: { parameters: [{ $ref: "#/parameters/q" }], responses: { "200": { schema: { $ref: "#/definitions/Error" } } } } } },
    });
  });
});
