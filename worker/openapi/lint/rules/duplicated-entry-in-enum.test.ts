import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("duplicated-entry-in-enum", () => {
  it("reports the last repeated value and its earlier copy", () => {
    expect(
      lintRule(
        "duplicated-entry-in-enum",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Size:
              type: string
              enum: [s, m, s, l, m]
            Fine:
              type: object
              properties:
                enum: {type: string}
        `,
      ),
    ).toEqual([{ line: 8, message: '"enum" property must not have duplicate items (items ## 1 and 4 are identical)', path: "/components/schemas/Size/enum" }]);
  });
});
