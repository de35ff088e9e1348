import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-parameters", () => {
  it("reports a repeated name + in, through $refs", () => {
    expect(
      lintRule(
        "operation-parameters",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              parameters:
                - {name: limit, in: query, schema: {type: integer}}
                - $ref: '#/components/parameters/Limit'
                - {name: limit, in: header, schema: {type: integer}}
              responses: {}
        components:
          parameters:
            Limit:
              name: limit
              in: query
              schema: {type: integer}
        `,
      ),
    ).toEqual([{ line: 13, message: 'A parameter in this operation already exposes the same combination of "name" and "in" values.', path: "/components/parameters/Limit" }]);
  });

  it("reports body together with formData, and a second body (2.0)", () => {
    expect(
      lintRule(
        "operation-parameters",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            post:
              parameters:
                - {name: a, in: body, schema: {type: object}}
                - {name: b, in: formData, type: string}
                - {name: c, in: body, schema: {type: object}}
              responses: {}
        `,
      ),
    ).toEqual([
      { line: 6, message: 'Operation must not have both "in:body" and "in:formData" parameters.', path: "/paths//a/post/parameters" },
      { line: 9, message: 'Operation must not have more than a single instance of the "in:body" parameter.', path: "/paths//a/post/parameters/2" },
    ]);
  });
});
