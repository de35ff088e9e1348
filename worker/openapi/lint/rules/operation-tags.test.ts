import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-tags", () => {
  it("reports missing and empty tags", () => {
    expect(
      lintRule(
        "operation-tags",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses: {}
            put:
              tags: []
              responses: {}
            post:
              tags: [pets]
              responses: {}
        `,
      ),
    ).toEqual([
      { line: 5, message: 'Operation must have non-empty "tags" array.', path: "/paths//a/get" },
      { line: 8, message: 'Operation must have non-empty "tags" array.', path: "/paths//a/put/tags" },
    ]);
  });
});
