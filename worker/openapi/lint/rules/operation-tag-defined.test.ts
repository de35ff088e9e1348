import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-tag-defined", () => {
  it("reports each operation tag missing from the root tags", () => {
    expect(
      lintRule(
        "operation-tag-defined",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        tags:
          - name: pets
        paths:
          /a:
            get:
              tags:
                - pets
                - store
              responses: {}
        `,
      ),
    ).toEqual([{ line: 10, message: "Operation tags must be defined in global tags.", path: "/paths//a/get/tags/1" }]);
  });
});
