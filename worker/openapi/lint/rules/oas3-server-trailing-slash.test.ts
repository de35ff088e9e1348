import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-server-trailing-slash", () => {
  it("reports root server URLs ending with a slash, not a bare /", () => {
    expect(
      lintRule(
        "oas3-server-trailing-slash",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        servers:
          - url: /
          - url: https://api.acme.io/v1/
        paths: {}
        `,
      ),
    ).toEqual([{ line: 5, message: "Server URL must not have trailing slash.", path: "/servers/1/url" }]);
  });
});
