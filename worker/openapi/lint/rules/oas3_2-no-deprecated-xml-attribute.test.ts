import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3_2-no-deprecated-xml-attribute", () => {
  it("reports xml.attribute: true in 3.2", () => {
    expect(
      lintRule(
        "oas3_2-no-deprecated-xml-attribute",
        `
        openapi: 3.2.0
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Pet:
              type: object
              properties:
                id:
                  type: string
                  xml: {attribute: true}
                name:
                  type: string
                  xml: {nodeType: attribute}
        `,
      ),
    ).toEqual([{ line: 11, message: '"xml.attribute" is deprecated in OAS 3.2; use "xml.nodeType: attribute" instead.', path: "/components/schemas/Pet/properties/id/xml" }]);
  });
});
