import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("openapi-tags-uniqueness", () => {
  it("reports each repeated tag name at its name", () => {
    expect(
      lintRule(
        "openapi-tags-uniqueness",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        tags:
          - name: pets
          - name: store
          - name: pets
            description: again
        paths: {}
        `,
      ),
    ).toEqual([{ line: 6, message: '"tags" object contains duplicate tag name "pets".', path: "/tags/2/name" }]);
  });

  it("checks nothing when a tag has no string name (as Spectral)", () => {
    expect(lintRule("openapi-tags-uniqueness", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\ntags: [{name: a}, {name: a}, {description: x}]\npaths: {}\n`)).toEqual([]);
  });
});
