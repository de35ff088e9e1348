import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("no-eval-in-markdown", () => {
  it("reports eval( in any description or title, components included", () => {
    expect(
      lintRule(
        "no-eval-in-markdown",
        `
        openapi: 3.0.3
        info:
          title: T
          version: "1"
          description: "Try eval(alert(1))"
        paths: {}
        components:
          schemas:
            Pet:
              title: "eval(x)"
              description: evaluate carefully
        `,
      ),
    ).toEqual([
      { line: 5, message: 'Markdown descriptions must not have "eval(".', path: "/info/description" },
      { line: 10, message: 'Markdown descriptions must not have "eval(".', path: "/components/schemas/Pet/title" },
    ]);
  });
});
