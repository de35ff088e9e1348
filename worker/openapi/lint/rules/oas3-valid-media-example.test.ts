import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

const PET = `
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}`;

describe("oas3-valid-media-example", () => {
  it("reports the first failure of each example, readOnly not required in requests", () => {
    expect(
      lintRule(
        "oas3-valid-media-example",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /pets:
            post:
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Pet'}
                    example: {name: Rex}
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Pet'}
                      examples:
                        rex: {value: {name: Rex}}
                        bad: {value: {id: 1, name: 7}}
        ${PET.replace(/\n/g, "\n        ")}
        `,
      ),
    ).toEqual([
      { line: 18, message: '"value" property must have required property "id"', path: "/paths//pets/post/responses/200/content/application/json/examples/rex/value" },
      { line: 19, message: '"name" property type must be string', path: "/paths//pets/post/responses/200/content/application/json/examples/bad/value/name" },
    ]);
  });

  it("checks parameter examples", () => {
    expect(lintRule("oas3-valid-media-example", `openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get:\n      parameters:\n        - name: n\n          in: query\n          schema: {type: integer}\n          example: ten\n      responses: {}\n`)).toEqual([
      { line: 10, message: '"example" property type must be integer', path: "/paths//a/get/parameters/0/example" },
    ]);
  });
  it("validates a 3.2 example's dataValue like value; serializedValue alone is not data", () => {
    expect(
      lintRule(
        "oas3-valid-media-example",
        `
        openapi: 3.2.0
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: {type: object, properties: {n: {type: integer}}}
                      examples:
                        good: {dataValue: {n: 1}}
                        bad: {dataValue: {n: one}}
                        wire: {serializedValue: '{"n": "one"}'}
        `,
      ),
    ).toEqual([{ line: 14, message: '"n" property type must be integer', path: "/paths//a/get/responses/200/content/application/json/examples/bad/dataValue/n" }]);
  });

  it("checks int32, int64, float, double and byte formats (bounds, base64)", () => {
    const problems = lintRule(
      "oas3-valid-media-example",
      `
      openapi: 3.1.0
      info: {title: T, version: "1"}
      paths:
        /a:
          get:
            parameters:
              - {name: a, in: query, schema: {type: integer, format: int32}, example: 2147483647}
              - {name: b, in: query, schema: {type: integer, format: int32}, example: 2147483648}
              - {name: c, in: query, schema: {type: integer, format: int64}, example: -9223372036854775808}
              - {name: d, in: query, schema: {type: number, format: int64}, example: 1.5}
              - {name: e, in: query, schema: {type: number, format: float}, example: 3.0e38}
              - {name: f, in: query, schema: {type: number, format: float}, example: 1.0e39}
              - {name: g, in: query, schema: {type: number, format: double}, example: .inf}
              - {name: h, in: query, schema: {type: string, format: byte}, example: aGVsbG8=}
              - {name: i, in: query, schema: {type: string, format: byte}, example: "hello!"}
              - {name: j, in: query, schema: {type: [string, integer], format: int32}, example: "not a number"}
            responses: {}
      `,
    );
    expect(problems.map((p) => `${p.line} ${p.message}`)).toEqual([
      '8 "example" property must match format "int32"',
      '10 "example" property must match format "int64"',
      '12 "example" property must match format "float"',
      '13 "example" property must match format "double"',
      '15 "example" property must match format "byte"',
    ]);
  });
});
