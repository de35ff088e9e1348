import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

const DOC = (version: string) => `
${version}
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Pet:
      $ref: '#/components/schemas/Animal'
      description: ignored by 3.0 tools
    Animal: {type: object}
`;

describe("no-$ref-siblings", () => {
  it("reports each sibling of a $ref in 3.0", () => {
    expect(lintRule("no-$ref-siblings", DOC("openapi: 3.0.3"))).toEqual([
      { line: 8, message: "$ref must not be placed next to any other properties", path: "/components/schemas/Pet/description" },
    ]);
  });

  it("does not apply to 3.1, where siblings are allowed", () => {
    expect(lintRule("no-$ref-siblings", DOC("openapi: 3.1.0"))).toEqual([]);
  });
});
