import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("path-keys-no-trailing-slash", () => {
  it("reports paths ending with a slash, but not the root path", () => {
    expect(lintRule("path-keys-no-trailing-slash", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /: {}\n  /pets/: {}\n  /pets: {}\n`)).toEqual([
      { line: 5, message: "Path must not end with slash.", path: "/paths//pets/" },
    ]);
  });
});
