import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-api-servers", () => {
  it("reports missing or empty servers", () => {
    expect(lintRule("oas3-api-servers", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\n`)).toEqual([
      { line: 1, message: 'OpenAPI "servers" must be present and non-empty array.', path: "/" },
    ]);
    expect(lintRule("oas3-api-servers", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\nservers: []\npaths: {}\n`)).toEqual([
      { line: 3, message: 'OpenAPI "servers" must be present and non-empty array.', path: "/servers" },
    ]);
  });

  it("accepts a server", () => {
    expect(lintRule("oas3-api-servers", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\nservers: [{url: "https://api.acme.io"}]\npaths: {}\n`)).toEqual([]);
  });
});
