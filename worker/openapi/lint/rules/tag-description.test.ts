import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("tag-description", () => {
  it("reports tags without a description", () => {
    expect(lintRule("tag-description", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\ntags:\n  - name: pets\n    description: Pets.\n  - name: store\npaths: {}\n`)).toEqual([
      { line: 6, message: 'Tag object must have "description".', path: "/tags/1" },
    ]);
  });
});
