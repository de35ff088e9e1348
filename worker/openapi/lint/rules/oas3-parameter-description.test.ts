import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-parameter-description", () => {
  it("reports path item, operation and component parameters without a description", () => {
    expect(
      lintRule(
        "oas3-parameter-description",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            parameters:
              - {name: a, in: query, schema: {type: string}}
            get:
              parameters:
                - {name: b, in: query, description: B, schema: {type: string}}
                - $ref: '#/components/parameters/C'
              responses: {}
        components:
          parameters:
            C: {name: c, in: header, schema: {type: string}}
        `,
      ),
    ).toEqual([
      { line: 6, message: 'Parameter objects must have "description".', path: "/paths//a/parameters/0" },
      { line: 14, message: 'Parameter objects must have "description".', path: "/components/parameters/C" },
    ]);
  });
});
