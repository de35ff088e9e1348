import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-valid-schema-example", () => {
  it("reports definition and parameter examples that break their schema", () => {
    expect(
      lintRule(
        "oas2-valid-schema-example",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              parameters:
                - {name: n, in: query, type: integer, x-example: ten}
              responses: {}
        definitions:
          Pet:
            type: object
            properties:
              tag: {type: string, x-nullable: true, example: null}
              age: {type: integer, example: "3"}
        `,
      ),
    ).toEqual([
      { line: 7, message: '"x-example" property type must be integer', path: "/paths//a/get/parameters/0/x-example" },
      { line: 14, message: '"example" property type must be integer', path: "/definitions/Pet/properties/age/example" },
    ]);
  });
});
