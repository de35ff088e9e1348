import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("path-declarations-must-exist", () => {
  it("reports an empty {} in a path", () => {
    expect(lintRule("path-declarations-must-exist", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /pets/{}:\n    get: {responses: {}}\n  /pets/{id}: {}\n`)).toEqual([
      { line: 4, message: 'Path parameter declarations must not be empty, ex."/given/{}" is invalid.', path: "/paths//pets/{}" },
    ]);
  });
});
