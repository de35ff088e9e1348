import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-operation-security-defined", () => {
  it("reports requirements naming undeclared schemes or scopes", () => {
    expect(
      lintRule(
        "oas3-operation-security-defined",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              security:
                - oauth: [read, admin]
                - bearer: []
              responses: {}
        components:
          securitySchemes:
            oauth:
              type: oauth2
              flows:
                clientCredentials: {tokenUrl: "https://a.b/t", scopes: {read: Read}}
        `,
      ),
    ).toEqual([
      { line: 7, message: '"admin" must be listed among scopes.', path: "/paths//a/get/security/0/oauth/1" },
      { line: 8, message: 'Operation "security" values must match a scheme defined in the "components.securitySchemes" object.', path: "/paths//a/get/security/1/bearer" },
    ]);
  });
});
