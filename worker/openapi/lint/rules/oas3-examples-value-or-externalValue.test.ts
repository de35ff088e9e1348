import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-examples-value-or-externalValue", () => {
  it("reports examples with neither or both of value and externalValue", () => {
    expect(
      lintRule(
        "oas3-examples-value-or-externalValue",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      examples:
                        empty: {summary: nothing}
                        good: {value: 1}
        components:
          examples:
            Both: {value: 1, externalValue: "https://a.b/x.json"}
        `,
      ),
    ).toEqual([
      { line: 12, message: 'Examples must have either "value" or "externalValue" field.', path: "/paths//a/get/responses/200/content/application/json/examples/empty" },
      { line: 16, message: 'Examples must have either "value" or "externalValue" field.', path: "/components/examples/Both" },
    ]);
  });
});
