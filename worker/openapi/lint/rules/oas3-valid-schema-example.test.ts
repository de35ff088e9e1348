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

  it("checks every pattern on the linear-time matcher, catastrophic ones included, so a hostile definition cannot stall lint", () => {
    const attack = "a".repeat(40_000) + "!";
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
              example: "${attack}"
            Fine:
              type: string
              pattern: "^(a|aa)+$"
              example: "aaaa"
        `,
      ),
      // On a backtracking engine the evil pattern would take 2^40000 steps on this example; RE2 answers at once.
    ).toEqual([
      { line: 9, message: '"example" property must match pattern "^[a-z]+$"', path: "/components/schemas/Code/example" },
      { line: 13, message: '"example" property must match pattern "^(a+)+$"', path: "/components/schemas/Evil/example" },
    ]);
  });

  it("leaves out patterns the linear-time matcher cannot run (backreferences, lookarounds)", () => {
    expect(
      lintRule(
        "oas3-valid-schema-example",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Twice:
              type: string
              pattern: "^(a+)\\1$"
              example: "ab"
            Ahead:
              type: string
              pattern: "^(?=x)"
              example: "y"
        `,
      ),
    ).toEqual([]);
  });

  it("checks patternProperties on the linear-time matcher, with additionalProperties seeing the keys they match", () => {
    const evilKey = "a".repeat(40_000) + "!";
    const doc = {
      openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {},
      components: {
        schemas: {
          Ext: { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false, example: { "x-a": "s", "x-b": 5, y: 1 } },
          Evil: { type: "object", patternProperties: { "^(a+)+$": { type: "integer" } }, additionalProperties: { type: "string" }, example: { [evilKey]: "text", aaaa: "not an integer" } },
        },
      },
    };
    expect(lintRule("oas3-valid-schema-example", JSON.stringify(doc, null, 1)).map((f) => [f.message, f.path])).toEqual([
      // One failure per example, as ajv reports it: "x-a" and "x-b" match ^x- and are not additional; "y" is.
      ['Property "y" is not expected to be here', "/components/schemas/Ext/example"],
      ['"aaaa" property type must be integer', "/components/schemas/Evil/example/aaaa"],
    ]);
  });

  it("checks each of 10,000 strings of one example against its pattern (one linear test per string)", () => {
    const codes = Array.from({ length: 10_000 }, (_, i) => `code${i}`);
    codes[7_777] = "Not-A-Code";
    const doc = {
      openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {},
      components: { schemas: { Codes: { type: "array", items: { type: "string", pattern: "^[a-z0-9]+$" }, example: codes } } },
    };
    expect(lintRule("oas3-valid-schema-example", JSON.stringify(doc)).map((f) => [f.message, f.path])).toEqual([
      ['Item at index 7777 must match pattern "^[a-z0-9]+$"', "/components/schemas/Codes/example/7777"],
    ]);
  });
});
