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
});
