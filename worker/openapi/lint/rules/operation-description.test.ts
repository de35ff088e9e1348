import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-description", () => {
  it("reports operations without a description, at the operation", () => {
    expect(
      lintRule(
        "operation-description",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /pets:
            get:
              description: Lists pets.
              responses: {}
            post:
              summary: Adds a pet
              responses: {}
        `,
      ),
    ).toEqual([{ line: 8, message: 'Operation "description" must be present and non-empty string.', path: "/paths//pets/post" }]);
  });

  it("follows a path item $ref and reports at its target", () => {
    expect(
      lintRule(
        "operation-description",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        paths:
          /pets:
            $ref: '#/components/pathItems/Pets'
        components:
          pathItems:
            Pets:
              get:
                responses: {}
        `,
      ),
    ).toEqual([{ line: 9, message: 'Operation "description" must be present and non-empty string.', path: "/components/pathItems/Pets/get" }]);
  });
});
