import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-api-host", () => {
  it("reports a missing host at the root, and ignores 3.x", () => {
    expect(lintRule("oas2-api-host", `swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths: {}\n`)).toEqual([
      { line: 1, message: 'OpenAPI "host" must be present and non-empty string.', path: "/" },
    ]);
    expect(lintRule("oas2-api-host", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\n`)).toEqual([]);
  });
});
