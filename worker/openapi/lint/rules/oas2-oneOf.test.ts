import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-oneOf", () => {
  it("reports oneOf in a Swagger 2.0 document", () => {
    expect(lintRule("oas2-oneOf", `swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths: {}\ndefinitions:\n  A:\n    oneOf: [{type: string}, {type: integer}]\n`)).toEqual([
      { line: 6, message: '"oneOf" keyword must not be used in OpenAPI v2 document.', path: "/definitions/A/oneOf" },
    ]);
  });
});
