import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("openapi-tags", () => {
  it("reports missing or empty root tags", () => {
    expect(lintRule("openapi-tags", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\n`)).toEqual([
      { line: 1, message: 'OpenAPI object must have non-empty "tags" array.', path: "/" },
    ]);
    expect(lintRule("openapi-tags", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\ntags: []\npaths: {}\n`)).toEqual([
      { line: 3, message: 'OpenAPI object must have non-empty "tags" array.', path: "/tags" },
    ]);
  });
});
