import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-valid-schema-example", () => {
  it("reports schema examples and defaults that break their schema", () => {
    expect(
      lintRule(
        "oas3-valid-schema-example",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Pet:
              type: object
              properties:
                size: {type: string, enum: [s, m], default: xl}
                age: {type: integer, minimum: 0, example: -1}
                nick: {type: string, nullable: true, example: null}
                born: {type: string, format: date-time, example: yesterday}
        `,
      ),
    ).toEqual([
      { line: 9, message: '"default" property must be equal to one of the allowed values: "s", "m"', path: "/components/schemas/Pet/properties/size/default" },
      { line: 10, message: '"example" property must be >= 0', path: "/components/schemas/Pet/properties/age/example" },
      { line: 12, message: '"example" property must match format "date-time"', path: "/components/schemas/Pet/properties/born/example" },
    ]);
  });

  it("validates against referenced schemas, recursive ones included", () => {
    expect(
      lintRule(
        "oas3-valid-schema-example",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Node:
              type: object
              properties:
                name: {type: string}
                children: {type: array, items: {$ref: '#/components/schemas/Node'}}
              example:
                name: root
                children:
                  - name: 5
        `,
      ),
    ).toEqual([{ line: 14, message: '"name" property type must be string', path: "/components/schemas/Node/example/children/0/name" }]);
  });

  it("checks safe patterns and skips catastrophic ones, so a hostile definition cannot stall lint", () => {
    expect(
      lintRule(
        "oas3-valid-schema-example",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Code:
              type: string
              pattern: "^[a-z]+$"
              example: "ABC"
            Evil:
              type: string
              pattern: "^(a+)+$"
              example: "aaaaaaaaaaaaaaaaaaaaaaaaa!"
        `,
      ),
      // Had the evil pattern run (2^25 backtracking steps here; a longer example never returns), its example
      // would be reported too.
    ).toEqual([{ line: 9, message: '"example" property must match pattern "^[a-z]+$"', path: "/components/schemas/Code/example" }]);
  });
});
