import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-schema", () => {
  it("reports structure errors in 3.0 as Spectral words them", () => {
    expect(
      lintRule(
        "oas3-schema",
        `
        openapi: 3.0.3
        info:
          title: T
          version: 1
          extra: x
        paths:
          /a:
            get:
              parameters:
                - name: q
                  in: querry
                  schema: {type: string}
                - name: r
                  in: query
              responses:
                "200":
                  content: {}
        `,
      ),
    ).toEqual([
      { line: 4, message: '"version" property must be string.', path: "/info/version" },
      { line: 5, message: 'Property "extra" is not expected to be here.', path: "/info/extra" },
      { line: 11, message: '"in" property must be equal to one of the allowed values: "path", "query", "header", "cookie". Did you mean "query"?.', path: "/paths//a/get/parameters/0/in" },
      { line: 13, message: '"schema" or "content" must be present.', path: "/paths//a/get/parameters/1" },
      { line: 16, message: '"200" property must have required property "description".', path: "/paths//a/get/responses/200" },
    ]);
  });

  it("validates 3.1 Schema Objects against the JSON Schema dialect", () => {
    expect(
      lintRule(
        "oas3-schema",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        components:
          schemas:
            A:
              type: strin
              properties:
                b: 5
        `,
      ),
    ).toEqual([
      { line: 6, message: '"type" property must be equal to one of the allowed values: "array", "boolean", "integer", "null", "number", "object", "string". Did you mean "string"?.', path: "/components/schemas/A/type" },
      { line: 8, message: '"b" property must be a valid Schema Object.', path: "/components/schemas/A/properties/b" },
    ]);
  });

  it("accepts a valid 3.2 document", () => {
    expect(lintRule("oas3-schema", `openapi: 3.2.0\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    query:\n      responses:\n        "200": {description: ok}\n`)).toEqual([]);
  });
  it("validates members named like JSON Schema keywords (a Media Type's `examples` map)", () => {
    // The schema set once skipped every schema under a key called `examples`, so Example Objects in
    // `components.examples` and in media types were never checked.
    expect(
      lintRule(
        "oas3-schema",
        `
        openapi: 3.2.0
        info: {title: T, version: "1"}
        components:
          examples:
            Both:
              value: 1
              externalValue: https://example.com/a
          mediaTypes:
            Json:
              examples:
                Wrong: 5
        `,
      ).map((p) => p.line),
    ).toEqual([5, 11, 11]); // 11: "Wrong" must be an object, and is not a Reference either
  });

  it("reports a 3.2 header name that is not an RFC 9110 token at the name", () => {
    expect(
      lintRule(
        "oas3-schema",
        `
        openapi: 3.2.0
        info: {title: T, version: "1"}
        components:
          responses:
            R:
              description: r
              headers:
                X-Fine: {schema: {}}
                "Bad Header": {schema: {}}
        `,
      ),
    ).toEqual([{ line: 9, message: 'Property name "Bad Header" must match pattern "^[0-9A-Za-z!#$%&"*+.^_`|~-]+$".', path: "/components/responses/R/headers/Bad Header" }]);
  });
});
