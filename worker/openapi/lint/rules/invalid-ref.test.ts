import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("invalid-ref", () => {
  it("reports local $refs whose target does not exist, not other files", () => {
    expect(
      lintRule(
        "invalid-ref",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            A: {$ref: '#/components/schemas/Missing'}
            B: {$ref: './other.yaml#/B'}
            C: {$ref: '#/components/schemas/A'}
        `,
      ),
    ).toEqual([{ line: 6, message: "'#/components/schemas/Missing' does not exist", path: "/components/schemas/A/$ref" }]);
  });
});
