import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-singular-tag", () => {
  it("reports an operation with more than one tag", () => {
    expect(
      lintRule(
        "operation-singular-tag",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              tags: [pets, store]
              responses: {}
            put:
              tags: [pets]
              responses: {}
        `,
      ),
    ).toEqual([{ line: 6, message: "Operation must not have more than a single tag.", path: "/paths//a/get/tags" }]);
  });
});
