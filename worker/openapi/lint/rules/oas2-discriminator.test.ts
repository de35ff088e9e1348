import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-discriminator", () => {
  it("reports a discriminator that is not a defined, required property", () => {
    expect(
      lintRule(
        "oas2-discriminator",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths: {}
        definitions:
          Pet:
            type: object
            discriminator: petType
            properties:
              name: {type: string}
          Cat:
            type: object
            discriminator: kind
            required: [kind]
            properties:
              kind: {type: string}
        `,
      ),
    ).toEqual([
      { line: 5, message: "The discriminator property must be in the required property list.", path: "/definitions/Pet" },
      { line: 8, message: "The discriminator property must be defined in this schema.", path: "/definitions/Pet/properties" },
    ]);
  });
});
