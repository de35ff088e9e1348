import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-server-not-example.com", () => {
  it("reports servers on example.com", () => {
    expect(lintRule("oas3-server-not-example.com", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\nservers:\n  - url: https://example.com/api\npaths: {}\n`)).toEqual([
      { line: 4, message: "Server URL must not point at example.com.", path: "/servers/0/url" },
    ]);
  });
});
