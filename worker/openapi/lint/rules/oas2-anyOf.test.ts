import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-anyOf", () => {
  it("reports anyOf in a Swagger 2.0 document", () => {
    expect(lintRule("oas2-anyOf", `swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths: {}\ndefinitions:\n  A:\n    anyOf: [{type: string}, {type: integer}]\n`)).toEqual([
      { line: 6, message: '"anyOf" keyword must not be used in OpenAPI v2 document.', path: "/definitions/A/anyOf" },
    ]);
  });
});
