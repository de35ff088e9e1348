import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-host-not-example", () => {
  it("reports an example.com host", () => {
    expect(lintRule("oas2-host-not-example", `swagger: "2.0"\ninfo: {title: T, version: "1"}\nhost: api.example.com\npaths: {}\n`)).toEqual([
      { line: 3, message: "Host URL must not point at example.com.", path: "/host" },
    ]);
  });
});
