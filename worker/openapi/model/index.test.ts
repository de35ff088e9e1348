import { describe, expect, it } from "vitest";
import { buildModel } from "./index";
import { MODEL_VERSION, type BuildIssue } from "./types";

const DOC = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1.0", "x-logo": {} },
  servers: [{ url: "https://api.example.com" }],
  security: [{ key: [] }],
  tags: [{ name: "pets", summary: "Pets", kind: "nav", extra: 1 }, { nope: true }],
  paths: {
    "/pets/{id}": {
      parameters: [{ $ref: "#/components/parameters/Id" }],
      servers: [{ url: "https://pets.example.com" }],
      get: {
        operationId: "getPet",
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
          default: { $ref: "#/components/responses/Error" },
        },
      },
      delete: {
        security: [],
        servers: [],
        responses: { "204": { description: "gone", content: { "application/json": { example: { $ref: "#/not/a/ref" } } } } },
      },
      put: { security: [{ oauth: ["write"] }], responses: { "400": { $ref: "#/components/responses/Missing" } } },
    },
  },
  components: {
    parameters: { Id: { name: "id", in: "path", schema: { $ref: "#/components/schemas/Id" } } },
    schemas: {
      Id: { type: "string" },
      Pet: { type: "object", properties: { id: { $ref: "#/components/schemas/Id" }, parent: { $ref: "#/components/schemas/Pet" }, "a/b": { $ref: "#/components/schemas/Odd~1Name" } } },
      "Odd/Name": { type: "integer" },
      Unused: { $ref: "#/components/schemas/Nowhere" },
    },
    responses: { Error: { description: "error" } },
    securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" }, oauth: { $ref: "#/components/securitySchemes/shared" }, shared: { type: "oauth2", flows: {} } },
  },
};

describe("buildModel", () => {
  const issues: BuildIssue[] = [];
  const model = buildModel(structuredClone(DOC), "3.1", "3.1", issues);

  it("builds the header: info, servers, tags, resolved security schemes, counts", () => {
    expect(model.header).toEqual({
      modelVersion: MODEL_VERSION,
      sourceVersion: "3.1",
      openapi: "3.1.0",
      info: { title: "Pets", version: "1.0", "x-logo": {} },
      servers: [{ url: "https://api.example.com" }],
      tags: [{ name: "pets", summary: "Pets", kind: "nav" }],
      securitySchemes: {
        key: { type: "apiKey", in: "header", name: "X-Key" },
        oauth: { type: "oauth2", flows: {} },
        shared: { type: "oauth2", flows: {} },
      },
      security: [{ key: [] }],
      counts: { operations: 3, webhooks: 0, callbacks: 0, schemas: 4, securitySchemes: 3 },
    });
  });

  it("reports unresolved local refs (not refs inside examples) and invalid tags", () => {
    expect(issues).toEqual([
      { severity: "error", rule: "unresolved-ref", message: '"#/components/responses/Missing" does not resolve to anything in the definition', path: ["paths", "/pets/{id}", "put", "responses", "400", "$ref"] },
      { severity: "error", rule: "unresolved-ref", message: '"#/components/schemas/Nowhere" does not resolve to anything in the definition', path: ["components", "schemas", "Unused", "$ref"] },
      { severity: "warning", rule: "invalid-tag", message: "A tag needs a string name; skipped", path: ["tags", 1] },
    ]);
  });

  it("slices an operation with every reachable ref once (cycles and ~1 escapes included), path parameters, servers, security", () => {
    const slice = model.slice("getpet");
    expect(slice.summary.slug).toBe("getpet");
    expect(slice.pathParameters).toEqual([{ $ref: "#/components/parameters/Id" }]);
    expect(slice.servers).toEqual([{ url: "https://pets.example.com" }]);
    expect(slice.security).toEqual([{ key: [] }]);
    expect(Object.keys(slice.refs)).toEqual([
      "#/components/parameters/Id",
      "#/components/responses/Error",
      "#/components/schemas/Id",
      "#/components/schemas/Odd~1Name",
      "#/components/schemas/Pet",
    ]);
    expect(slice.refs["#/components/schemas/Odd~1Name"]).toEqual({ type: "integer" });
    expect(JSON.parse(JSON.stringify(slice)).operation).toEqual(DOC.paths["/pets/{id}"].get);
  });

  it("keeps an explicit empty security, falls back to root servers over empty lists, follows used scheme refs", () => {
    const del = model.slice("delete-pets-id");
    expect(del.security).toEqual([]);
    expect(del.servers).toEqual([{ url: "https://pets.example.com" }]);
    expect(Object.keys(del.refs)).toEqual(["#/components/parameters/Id", "#/components/schemas/Id"]);
    const put = model.slice("put-pets-id");
    expect(put.security).toEqual([{ oauth: ["write"] }]);
    expect(Object.keys(put.refs)).toEqual(["#/components/parameters/Id", "#/components/schemas/Id", "#/components/securitySchemes/shared"]);
  });

  it("refuses an unknown slug", () => {
    expect(() => model.slice("nope")).toThrow(RangeError);
  });
});
