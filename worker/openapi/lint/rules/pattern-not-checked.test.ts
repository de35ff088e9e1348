import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("pattern-not-checked", () => {
  it("names patterns the linear-time matcher cannot run, and only those", () => {
    expect(
      lintRule(
        "pattern-not-checked",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Evil: {type: string, pattern: "^(a+)+$"}
            Twice: {type: string, pattern: "^(a+)\\\\1$"}
            Ahead: {type: string, pattern: "^(?!x)"}
            Nested: {type: string, pattern: "(a{2,100}){2,100}"}
            Map:
              type: object
              patternProperties:
                "^x-": {type: string}
                "^(?<=a)b": {type: string}
        `,
      ),
    ).toEqual([
      { line: 7, message: "pattern not checked: not supported by the linear-time matcher", path: "/components/schemas/Twice/pattern" },
      { line: 8, message: "pattern not checked: not supported by the linear-time matcher", path: "/components/schemas/Ahead/pattern" },
      { line: 9, message: "pattern not checked: too complex", path: "/components/schemas/Nested/pattern" },
      { line: 14, message: "pattern not checked: not supported by the linear-time matcher", path: "/components/schemas/Map/patternProperties/^(?<=a)b" },
    ]);
  });

  it("says a pattern longer than the budget is too long", () => {
    const long = "a".repeat(2_001);
    expect(lintRule("pattern-not-checked", `
      openapi: 3.0.3
      info: {title: T, version: "1"}
      paths: {}
      components: {schemas: {Long: {type: string, pattern: "${long}"}}}
    `)).toEqual([{ line: 4, message: "pattern not checked: too long", path: "/components/schemas/Long/pattern" }]);
  });
});
