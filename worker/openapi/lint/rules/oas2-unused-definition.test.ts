import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-unused-definition", () => {
  it("reports definitions no $ref points at", () => {
    expect(
      lintRule(
        "oas2-unused-definition",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200": {description: ok, schema: {$ref: '#/definitions/Used'}}
        definitions:
          Used:
            type: object
            properties:
              child: {$ref: '#/definitions/Child'}
          Child: {type: string}
          Orphan: {type: string}
        `,
      ),
    ).toEqual([{ line: 14, message: "Potentially unused definition has been detected.", path: "/definitions/Orphan" }]);
  });
});
