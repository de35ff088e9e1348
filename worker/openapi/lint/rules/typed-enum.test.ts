import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("typed-enum", () => {
  it("reports enum values of another type", () => {
    expect(
      lintRule(
        "typed-enum",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Count:
              type: integer
              enum:
                - 1
                - 2.5
                - "3"
            Maybe:
              type: string
              nullable: true
              enum: [a, null]
        `,
      ),
    ).toEqual([
      { line: 10, message: 'Enum value 2.5 must be "integer".', path: "/components/schemas/Count/enum/1" },
      { line: 11, message: 'Enum value "3" must be "integer".', path: "/components/schemas/Count/enum/2" },
    ]);
  });

  it("admits null only through 3.0 nullable", () => {
    expect(lintRule("typed-enum", `openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    M: {type: string, nullable: true, enum: [a, null]}\n`)).toEqual([
      { line: 6, message: 'Enum value null must be "string".', path: "/components/schemas/M/enum/1" },
    ]);
  });
});
