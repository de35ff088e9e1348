import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-host-trailing-slash", () => {
  it("reports a host ending with a slash", () => {
    expect(lintRule("oas2-host-trailing-slash", `swagger: "2.0"\ninfo: {title: T, version: "1"}\nhost: api.acme.io/\npaths: {}\n`)).toEqual([
      { line: 3, message: "Server URL must not have trailing slash.", path: "/host" },
    ]);
    expect(lintRule("oas2-host-trailing-slash", `swagger: "2.0"\ninfo: {title: T, version: "1"}\nhost: api.acme.io\npaths: {}\n`)).toEqual([]);
  });
});
