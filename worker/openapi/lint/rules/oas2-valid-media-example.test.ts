import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-valid-media-example", () => {
  it("reports response examples (per media type) that break the response schema", () => {
    expect(
      lintRule(
        "oas2-valid-media-example",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200":
                  description: ok
                  schema: {type: object, required: [id], properties: {id: {type: integer}}}
                  examples:
                    application/json: {id: 1}
                    application/xml: {id: one}
        `,
      ),
    ).toEqual([{ line: 12, message: '"id" property type must be integer', path: "/paths//a/get/responses/200/examples/application/xml/id" }]);
  });
});
