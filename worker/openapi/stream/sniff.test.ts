import { describe, expect, it } from "vitest";
import { headDeclaresSwagger2, SNIFF_HEAD_BYTES } from "./sniff";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("headDeclaresSwagger2 (issue 12: Swagger 2.0 past 16 MiB goes to the whole build without a streamed attempt)", () => {
  it("finds a top-level swagger: 2.0 in JSON, after other members, a BOM and nested values", () => {
    expect(headDeclaresSwagger2(bytes('{"swagger":"2.0","info":{}}'), "json")).toBe(true);
    expect(headDeclaresSwagger2(bytes('\uFEFF{\n  "consumes": ["a", "{"],\n  "x": {"swagger": "3"},\n  "swagger" : "2.0",\n  "paths": {'), "json")).toBe(true);
    // An escaped key is still the key `swagger`.
    expect(headDeclaresSwagger2(bytes('{"\\u0073wagger": "2.0"'), "json")).toBe(true);
  });

  it("does not take a nested or quoted swagger for the top-level one, nor another version", () => {
    expect(headDeclaresSwagger2(bytes('{"info": {"swagger": "2.0"}, "openapi": "3.0.0"}'), "json")).toBe(false);
    expect(headDeclaresSwagger2(bytes('{"info": {"description": "\\"swagger\\": \\"2.0\\""}, "openapi": "3.0.0"}'), "json")).toBe(false);
    expect(headDeclaresSwagger2(bytes('{"tags": ["swagger", "2.0"], "openapi": "3.1.0"}'), "json")).toBe(false);
    expect(headDeclaresSwagger2(bytes('{"openapi": "3.0.3", "swagger": "2.0"}'), "json")).toBe(true); // the whole build decides what this is
    expect(headDeclaresSwagger2(bytes('{"swagger": 2.0}'), "json")).toBe(false);
    expect(headDeclaresSwagger2(bytes('{"swagger": "1.2"}'), "json")).toBe(false);
    expect(headDeclaresSwagger2(bytes('[{"swagger": "2.0"}]'), "json")).toBe(false);
  });

  it("says nothing when the head ends before the member (keys sorted, swagger after paths) or inside it", () => {
    const sorted = `{"basePath": "/api", "definitions": {${'"a": {"type": "string"},'.repeat(400)}"z": {}}, "swagger": "2.0"}`;
    expect(headDeclaresSwagger2(bytes(sorted), "json")).toBe(true);
    expect(headDeclaresSwagger2(bytes(sorted).subarray(0, SNIFF_HEAD_BYTES), "json")).toBe(false);
    expect(headDeclaresSwagger2(bytes('{"swagger": "2.'), "json")).toBe(false);
  });

  it("finds a top-level swagger: 2.0 line in YAML (plain or quoted, after comments), never an indented one or a cut last line", () => {
    expect(headDeclaresSwagger2(bytes('# Docker Engine API\n#\nswagger: "2.0"\nschemes:\n  - http\n'), "yaml")).toBe(true);
    expect(headDeclaresSwagger2(bytes("\uFEFF---\r\nswagger: 2.0   # the spec\r\ninfo:\r\n"), "yaml")).toBe(true);
    expect(headDeclaresSwagger2(bytes("'swagger': '2.0'\n"), "yaml")).toBe(true);
    expect(headDeclaresSwagger2(bytes('openapi: 3.0.3\ninfo:\n  swagger: "2.0"\n  description: |\n    swagger: "2.0"\n'), "yaml")).toBe(false);
    expect(headDeclaresSwagger2(bytes('swagger: "2.0"'), "yaml")).toBe(false);
    expect(headDeclaresSwagger2(bytes('swagger: "2.01"\n'), "yaml")).toBe(false);
  });
});
