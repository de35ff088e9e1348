import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-unused-component", () => {
  it("reports components no $ref points at (security schemes excepted)", () => {
    expect(
      lintRule(
        "oas3-unused-component",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200": {$ref: '#/components/responses/Ok'}
        components:
          responses:
            Ok: {description: ok}
          schemas:
            Orphan: {type: string}
          securitySchemes:
            key: {type: apiKey, name: k, in: header}
        `,
      ),
    ).toEqual([{ line: 12, message: "Potentially unused component has been detected.", path: "/components/schemas/Orphan" }]);
  });
});
