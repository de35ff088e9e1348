/// <reference types="node" />
import { readFileSync } from "node:fs";
import { gzipSync, zipSync } from "fflate";
import { createTar } from "nanotar";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../test/harness/corpus-files";
import { buildReference } from "./build";
import type { BuildOutcome, BuildSuccess } from "./build";

const CORPUS = CORPUS_DIR;
const enc = (s: string) => new TextEncoder().encode(s);
const file = (path: string) => new Uint8Array(readFileSync(`${CORPUS}/${path}`));

function built(outcome: BuildOutcome): BuildSuccess {
  if (!outcome.ok) throw new Error(`expected a build, got ${outcome.status} ${outcome.code}: ${outcome.message}`);
  return outcome;
}

const LOL = [
  "openapi: 3.1.0",
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ..."bcdefghi".split("").map((c, i) => `${c}: &${c} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(",")}]`),
].join("\n");

describe("buildReference: refusals", () => {
  it("refuses a PNG, NUL-laden text and invalid UTF-8 with 415", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(buildReference({ body: png, contentType: "application/yaml" })).toEqual({
      ok: false, status: 415, code: "unsupported-media-type", message: "the body is a PNG image, not an OpenAPI definition", issues: [],
    });
    expect(buildReference({ body: enc("openapi: 3.1.0\u0000") })).toMatchObject({ ok: false, status: 415 });
    expect(buildReference({ body: new Uint8Array([0x6f, 0x3a, 0x20, 0xc3, 0x28]) })).toMatchObject({ ok: false, status: 415, message: "the body is not UTF-8 text" });
  });

  it("refuses syntax errors with 400 and a position", () => {
    expect(buildReference({ body: enc('{\n  "openapi": "3.1.0",\n  "info": {,}\n}') })).toEqual({
      ok: false, status: 400, code: "syntax", message: "Expected double-quoted property name (line 3, column 12)", line: 3, column: 12, issues: [],
    });
    expect(buildReference({ body: enc("openapi: 3.1.0\npaths: [a\n") })).toMatchObject({ ok: false, status: 400, code: "syntax", line: 3 });
    expect(buildReference({ body: enc("") })).toMatchObject({ ok: false, status: 400, code: "empty" });
  });

  it("refuses a billion-laughs YAML and 10,000-deep nesting with 400", () => {
    expect(buildReference({ body: enc(LOL) })).toMatchObject({ ok: false, status: 400, code: "yaml-aliases" });
    expect(buildReference({ body: enc(`{"openapi": "3.1.0", "x": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`) })).toMatchObject({ ok: false, status: 400, code: "too-deep", line: 1 });
    expect(buildReference({ body: enc("openapi: 3.1.0\nx: " + "{a: ".repeat(10_000) + "1" + "}".repeat(10_000)) })).toMatchObject({ ok: false, status: 400, code: "too-deep", line: 2 });
  });

  it("refuses what is not an OpenAPI definition with 422", () => {
    expect(buildReference({ body: enc("[1, 2, 3]") })).toMatchObject({ ok: false, status: 422, code: "not-openapi" });
    expect(buildReference({ body: enc('"just a string"') })).toMatchObject({ ok: false, status: 422, code: "not-openapi" });
    expect(buildReference({ body: enc('{"name": "package.json"}') })).toMatchObject({ ok: false, status: 422, code: "not-openapi" });
    expect(buildReference({ body: enc("openapi: 3.3.0\ninfo: {}\n") })).toEqual({
      ok: false, status: 422, code: "unsupported-version", message: 'OpenAPI "3.3.0" is not supported; Portico reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2', line: 1, column: 1, issues: [],
    });
    expect(buildReference({ body: enc("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: nope\n") })).toMatchObject({ ok: false, status: 422, code: "invalid-paths", line: 3, column: 1 });
  });

  it("refuses archives with traversal (400), without a root (422) or too large (413)", () => {
    expect(buildReference({ body: zipSync({ "../x.yaml": enc("openapi: 3.1.0") }) })).toMatchObject({ ok: false, status: 400, code: "unsafe-archive" });
    expect(buildReference({ body: zipSync({ "a.yaml": enc("type: object") }) })).toMatchObject({ ok: false, status: 422, code: "root-not-found" });
    const bomb = gzipSync(new Uint8Array(80 * 1024 * 1024), { level: 9 });
    expect(buildReference({ body: bomb })).toMatchObject({ ok: false, status: 413, code: "archive-too-large" });
  });
});

describe("buildReference: definitions", () => {
  it("upgrades the Swagger 2.0 petstore to 3.0 with the same operations", () => {
    const v2 = built(buildReference({ body: file("oai-spec/examples/v2.0/yaml/petstore-expanded.yaml") }));
    const v3 = built(buildReference({ body: file("oai-spec/examples/v3.0/petstore-expanded.yaml") }));
    expect(v2.sourceVersion).toBe("2.0");
    expect(v2.header.openapi).toMatch(/^3\.0\./);
    expect(v2.operations).toEqual(v3.operations);
    expect(v2.header.servers).toEqual([{ url: "http://petstore.swagger.io/api" }]);
    expect(Object.keys(v2.slice("addpet").refs)).toEqual(["#/components/schemas/NewPet", "#/components/schemas/Pet", "#/components/schemas/Error"].sort());
    expect(v2.issues).toEqual([]);
  });

  it("publishes a 3.2 definition with query and additionalOperations", () => {
    const out = built(buildReference({ body: file("oai-spec-v3.2-dev/tests/schema/pass/path-item-object-example.yaml") }));
    expect(out.sourceVersion).toBe("3.2");
    expect(out.operations.map((o) => [o.method, o.slug])).toEqual([["get", "getpetsbyid"], ["query", "querypetsbyid"], ["COPY", "copypetsbyid"]]);
    expect(out.header.counts.operations).toBe(3);
    expect(out.slice("querypetsbyid").pathParameters).toHaveLength(1);
  });

  it("locates issues by line, including after a Swagger 2.0 upgrade", () => {
    const yaml = [
      "swagger: '2.0'",
      "info: {title: t, version: '1'}",
      "paths:",
      "  /a:",
      "    get:",
      "      responses:",
      "        '200': {description: ok, schema: {$ref: '#/definitions/Missing'}}",
      "    post: {operationId: x, responses: {}}",
      "    put: {operationId: x, responses: {}}",
      "definitions:",
      "  Remote: {$ref: 'https://example.com/s.json'}",
    ].join("\n");
    const out = built(buildReference({ body: enc(yaml) }));
    expect(out.issues.map((i) => [i.rule, i.line])).toEqual([
      ["unresolved-ref", 7],
      ["duplicate-operation-id", 9],
      ["remote-ref", 11],
    ]);
    expect(out.source.parsed.data).toMatchObject({ swagger: "2.0", definitions: { Remote: { $ref: "https://example.com/s.json" } } });
  });

  it("builds a multi-file definition from a tar.gz, finding the root and reporting a missing file with its line", async () => {
    const files = [
      { name: "api/openapi.yaml", data: enc("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /pets: {$ref: 'paths/pets.yaml'}\n") },
      { name: "api/paths/pets.yaml", data: enc("get:\n  responses:\n    '200': {content: {application/json: {schema: {$ref: '../schemas/Pet.yaml'}}}}\n    '404': {$ref: '../responses/missing.yaml'}\n") },
      { name: "api/schemas/Pet.yaml", data: enc("type: object\n") },
    ];
    const out = built(buildReference({ body: gzipSync(createTar(files)) }));
    expect(out.source.path).toBe("api/openapi.yaml");
    expect(out.operations.map((o) => o.slug)).toEqual(["get-pets"]);
    expect(out.slice("get-pets").refs).toEqual({ "#/components/schemas/Pet": { type: "object" } });
    expect(out.issues).toEqual([
      {
        severity: "error", rule: "unresolved-ref", file: "api/paths/pets.yaml", path: ["get", "responses", "404", "$ref"], line: 4, column: 13,
        message: 'Cannot resolve "../responses/missing.yaml": file "api/responses/missing.yaml" is not in the upload',
      },
    ]);
  });

  it("builds the Swagger 2.0 petstore-separate example as a zip with ?root=", () => {
    const dir = "oai-spec/examples/v2.0/json/petstore-separate";
    const names = ["spec/swagger.json", "spec/Pet.json", "spec/NewPet.json", "spec/parameters.json", "common/Error.json"];
    const zip = zipSync(Object.fromEntries(names.map((n) => [n, file(`${dir}/${n}`)])));
    const out = built(buildReference({ body: zip, root: "spec/swagger.json" }));
    expect(out.operations).toHaveLength(4);
    expect(Object.keys((out.document.components as Record<string, object>).schemas).sort()).toEqual(["Error", "NewPet", "Pet"]);
    expect(out.issues).toEqual([]);
  });
});
