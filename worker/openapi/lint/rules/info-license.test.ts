import { describe, expect, it } from "vitest";
import { lintDocument } from "../lint-document";
import { lintRule } from "../test-helpers";

const NO_LICENSE = `openapi: 3.1.0\ninfo:\n  title: T\n  version: "1"\npaths: {}\n`;

describe("info-license", () => {
  it("is off by default", () => {
    expect(lintDocument(NO_LICENSE).problems.filter((p) => p.rule === "info-license")).toEqual([]);
  });

  it("reports an Info object without license when enabled", () => {
    expect(lintRule("info-license", NO_LICENSE)).toEqual([{ line: 2, message: 'Info object must have "license" object.', path: "/info" }]);
  });
});
