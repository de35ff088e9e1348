import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-api-schemes", () => {
  it("reports missing or empty schemes", () => {
    expect(lintRule("oas2-api-schemes", `swagger: "2.0"\ninfo: {title: T, version: "1"}\nschemes: []\npaths: {}\n`)).toEqual([
      { line: 3, message: 'OpenAPI host "schemes" must be present and non-empty array.', path: "/schemes" },
    ]);
  });

  it("accepts a list of schemes", () => {
    expect(lintRule("oas2-api-schemes", `swagger: "2.0"\ninfo: {title: T, version: "1"}\nschemes: [https]\npaths: {}\n`)).toEqual([]);
  });
});
