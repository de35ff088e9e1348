/// <reference types="node" />
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR } from "../../../test/harness/corpus-files";
import { describe, expect, it } from "vitest";
import type { BuildIssue } from "../model/types";
import { parseDocument } from "../parse";
import { upgradeSwagger } from "./upgrade-swagger";

function upgraded(source: Record<string, unknown>) {
  const issues: BuildIssue[] = [];
  const outcome = upgradeSwagger(structuredClone(source), issues);
  if (!outcome.ok) throw new Error(outcome.message);
  return { doc: outcome.document as Record<string, any>, issues };
}

describe("upgradeSwagger", () => {
  it("upgrades the OAI petstore: servers from host + basePath + schemes, definitions → components/schemas", () => {
    const parsed = parseDocument(readFileSync(join(CORPUS_DIR, "oai-spec/examples/v2.0/yaml/petstore.yaml"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const source = parsed.doc.data as Record<string, any>;
    const { doc, issues } = upgraded(source);
    expect(issues).toEqual([]);
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    expect(doc.servers).toEqual([{ url: `${source.schemes[0]}://${source.host}${source.basePath}` }]);
    expect(Object.keys(doc.components.schemas)).toEqual(Object.keys(source.definitions));
    expect(doc.paths["/pets"].get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Pets" });
    for (const [path, item] of Object.entries(source.paths as Record<string, Record<string, unknown>>)) {
      expect(Object.keys(doc.paths[path])).toEqual(Object.keys(item));
    }
  });

  it("turns securityDefinitions into securitySchemes and formData into a form requestBody", () => {
    const { doc } = upgraded({
      swagger: "2.0",
      info: { title: "t", version: "1" },
      securityDefinitions: { basic: { type: "basic" }, oauth: { type: "oauth2", flow: "accessCode", authorizationUrl: "https://a", tokenUrl: "https://t", scopes: { r: "read" } } },
      paths: { "/upload": { post: { consumes: ["multipart/form-data"], parameters: [{ name: "file", in: "formData", type: "file", required: true }], responses: { "200": { description: "ok" } } } } },
    });
    expect(doc.components.securitySchemes).toEqual({
      basic: { type: "http", scheme: "basic" },
      oauth: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://a", tokenUrl: "https://t", scopes: { r: "read" } } } },
    });
    expect(doc.paths["/upload"].post.requestBody).toEqual({
      content: { "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } }, required: ["file"] } } },
    });
  });

  it("moves refs to global body/formData parameters out of parameters into requestBody (upgrader leaves them there)", () => {
    const { doc } = upgraded({
      swagger: "2.0",
      info: { title: "t", version: "1" },
      consumes: ["application/x-www-form-urlencoded"],
      parameters: {
        Body: { name: "body", in: "body", schema: { type: "object" } },
        A: { name: "a", in: "formData", type: "string", required: true },
        B: { name: "b", in: "formData", type: "integer" },
        Q: { name: "q", in: "query", type: "string" },
      },
      paths: {
        "/one": { post: { parameters: [{ $ref: "#/parameters/Body" }, { $ref: "#/parameters/Q" }], responses: {} } },
        "/form": { post: { parameters: [{ $ref: "#/parameters/A" }, { $ref: "#/parameters/B" }], responses: {} } },
      },
    });
    expect(doc.paths["/one"].post.parameters).toEqual([{ $ref: "#/components/parameters/Q" }]);
    expect(doc.paths["/one"].post.requestBody).toEqual({ $ref: "#/components/requestBodies/Body" });
    expect(doc.paths["/form"].post.parameters).toBeUndefined();
    expect(doc.paths["/form"].post.requestBody).toEqual({
      content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"] } } },
    });
  });

  it("survives inputs the upgrader throws on, reporting what it skipped, and keeps path item extensions", () => {
    const { doc, issues } = upgraded({
      swagger: "2.0",
      info: { title: "t", version: "1" },
      consumes: "application/json",
      paths: {
        "/a": {
          get: { parameters: [null, { name: "noin" }, { name: "ok", in: "query", type: "string" }], responses: { "200": null, "201": { description: "x" } } },
          "x-note": "kept",
          parameters: [{ name: "body", in: "body", schema: { type: "string" } }],
        },
      },
    });
    expect(doc.paths["/a"]["x-note"]).toBe("kept");
    expect(doc.paths["/a"].get.parameters).toEqual([{ name: "ok", in: "query", schema: { type: "string" } }]);
    expect(doc.paths["/a"].get.requestBody).toEqual({ content: { "application/json": { schema: { type: "string" } } } });
    expect(issues.map((i) => [i.rule, i.path])).toEqual([
      ["invalid-structure", ["consumes"]],
      ["invalid-parameter", ["paths", "/a", "get", "parameters", 0]],
      ["invalid-parameter", ["paths", "/a", "get", "parameters", 1]],
    ]);
  });
});
