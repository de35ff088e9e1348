import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("info-contact", () => {
  it("reports an Info object without contact, at info", () => {
    expect(
      lintRule(
        "info-contact",
        `
        openapi: 3.1.0
        info:
          title: T
          version: "1"
        paths: {}
        `,
      ),
    ).toEqual([{ line: 2, message: 'Info object must have "contact" object.', path: "/info" }]);
  });

  it("accepts a contact object", () => {
    expect(lintRule("info-contact", `swagger: "2.0"\ninfo: {title: T, version: "1", contact: {name: A}}\npaths: {}\n`)).toEqual([]);
  });
});
