import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("openapi-tags-alphabetical", () => {
  it("reports unsorted tags once, at tags", () => {
    expect(lintRule("openapi-tags-alphabetical", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\ntags:\n  - name: store\n  - name: pets\npaths: {}\n`)).toEqual([
      { line: 3, message: 'OpenAPI object must have alphabetical "tags".', path: "/tags" },
    ]);
  });

  it("accepts sorted tags", () => {
    expect(lintRule("openapi-tags-alphabetical", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\ntags: [{name: pets}, {name: store}]\npaths: {}\n`)).toEqual([]);
  });
});
