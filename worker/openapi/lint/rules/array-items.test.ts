import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("array-items", () => {
  it("reports array schemas without items", () => {
    expect(
      lintRule(
        "array-items",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            List: {type: array}
            Maybe:
              type: [array, "null"]
            Ok: {type: array, items: {type: string}}
        `,
      ),
    ).toEqual([
      { line: 6, message: 'Schemas with "type: array", require a sibling "items" field', path: "/components/schemas/List" },
      { line: 7, message: 'Schemas with "type: array", require a sibling "items" field', path: "/components/schemas/Maybe" },
    ]);
  });
});
