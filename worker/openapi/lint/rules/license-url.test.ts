import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("license-url", () => {
  it("reports a license without url, at the license", () => {
    expect(lintRule("license-url", `openapi: 3.1.0\ninfo:\n  title: T\n  version: "1"\n  license:\n    name: MIT\npaths: {}\n`)).toEqual([
      { line: 5, message: 'License object must include "url".', path: "/info/license" },
    ]);
  });

  it("accepts a license url", () => {
    expect(lintRule("license-url", `openapi: 3.1.0\ninfo: {title: T, version: "1", license: {name: MIT, url: "https://x.org"}}\npaths: {}\n`)).toEqual([]);
  });
});
