import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-parameter-description", () => {
  it("reports parameters without a description, shared ones included", () => {
    expect(
      lintRule(
        "oas2-parameter-description",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        parameters:
          limit: {name: limit, in: query, type: integer}
        paths:
          /a:
            get:
              parameters:
                - {name: q, in: query, type: string, description: Query}
                - $ref: '#/parameters/limit'
              responses: {}
        `,
      ),
    ).toEqual([{ line: 4, message: 'Parameter objects must have "description".', path: "/parameters/limit" }]);
  });
});
