import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("no-script-tags-in-markdown", () => {
  it("reports <script in descriptions, once per place even when reached through $refs", () => {
    expect(
      lintRule(
        "no-script-tags-in-markdown",
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
                      schema: {$ref: '#/components/schemas/Pet'}
        components:
          schemas:
            Pet:
              description: "<script>alert(1)</script>"
        `,
      ),
    ).toEqual([{ line: 15, message: 'Markdown descriptions must not have "<script>" tags.', path: "/components/schemas/Pet/description" }]);
  });
});
