import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-schema", () => {
  it("reports structure errors in 2.0", () => {
    expect(
      lintRule(
        "oas2-schema",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200":
                  schema: {type: object}
        `,
      ),
    ).toEqual([{ line: 7, message: '"200" property must have required property "description".', path: "/paths//a/get/responses/200" }]);
  });

  it("accepts the Swagger petstore shape", () => {
    expect(lintRule("oas2-schema", `swagger: "2.0"\ninfo: {title: T, version: "1"}\nhost: api.acme.io\nschemes: [https]\npaths:\n  /a:\n    get:\n      responses:\n        "200": {description: ok}\n`)).toEqual([]);
  });
});
