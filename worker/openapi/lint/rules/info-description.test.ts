import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("info-description", () => {
  it("reports a missing or empty description", () => {
    expect(lintRule("info-description", `openapi: 3.0.3\ninfo:\n  title: T\n  version: "1"\n  description: ""\npaths: {}\n`)).toEqual([
      { line: 5, message: 'Info "description" must be present and non-empty string.', path: "/info/description" },
    ]);
  });

  it("accepts a description", () => {
    expect(lintRule("info-description", `openapi: 3.0.3\ninfo: {title: T, version: "1", description: An API}\npaths: {}\n`)).toEqual([]);
  });
});
