import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("path-not-include-query", () => {
  it("reports a query string in a path", () => {
    expect(lintRule("path-not-include-query", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /pets: {}\n  /pets?limit=10: {}\n`)).toEqual([
      { line: 5, message: "Path must not include query string.", path: "/paths//pets?limit=10" },
    ]);
  });
});
