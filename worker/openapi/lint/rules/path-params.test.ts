import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("path-params", () => {
  it("reports undeclared, unused, optional and repeated path parameters", () => {
    expect(
      lintRule(
        "path-params",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /pets/{petId}:
            parameters:
              - {name: petId, in: path, required: true, schema: {type: string}}
            get:
              responses: {}
          /owners/{ownerId}:
            get:
              parameters:
                - {name: id, in: path, schema: {type: string}}
              responses: {}
          /a/{x}/b/{x}:
            get:
              parameters:
                - {name: x, in: path, required: true, schema: {type: string}}
                - {name: x, in: path, required: true, schema: {type: string}}
              responses: {}
        `,
      ),
    ).toEqual([
      { line: 10, message: 'Operation must define parameter "{ownerId}" as expected by path "/owners/{ownerId}".', path: "/paths//owners/{ownerId}/get" },
      { line: 12, message: 'Parameter "id" must be used in path "/owners/{ownerId}".', path: "/paths//owners/{ownerId}/get/parameters/0" },
      { line: 12, message: 'Path parameter "id" must have "required" property that is set to "true".', path: "/paths//owners/{ownerId}/get/parameters/0" },
      { line: 14, message: 'Path "/a/{x}/b/{x}" must not use parameter "{x}" multiple times.', path: "/paths//a/{x}/b/{x}" },
      { line: 18, message: 'Path parameter "x" must not be defined multiple times.', path: "/paths//a/{x}/b/{x}/get/parameters/1" },
    ]);
  });

  it("reports equivalent templated paths", () => {
    expect(
      lintRule(
        "path-params",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /pets/{id}:
            get:
              parameters: [{name: id, in: path, required: true, type: string}]
              responses: {}
          /pets/{petId}:
            get:
              parameters: [{name: petId, in: path, required: true, type: string}]
              responses: {}
        `,
      ),
    ).toEqual([{ line: 8, message: 'Paths "/pets/{id}" and "/pets/{petId}" must not be equivalent.', path: "/paths//pets/{petId}" }]);
  });
});
