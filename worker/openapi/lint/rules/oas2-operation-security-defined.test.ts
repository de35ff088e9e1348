import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-operation-security-defined", () => {
  it("reports unknown schemes and scopes, for the API and for operations", () => {
    expect(
      lintRule(
        "oas2-operation-security-defined",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        securityDefinitions:
          oauth:
            type: oauth2
            flow: implicit
            authorizationUrl: https://a.b/auth
            scopes: {read: Read}
        security:
          - apiKey: []
        paths:
          /a:
            get:
              security:
                - oauth: [read, write]
              responses: {}
        `,
      ),
    ).toEqual([
      { line: 10, message: 'API "security" values must match a scheme defined in the "securityDefinitions" object.', path: "/security/0/apiKey" },
      { line: 15, message: '"write" must be listed among scopes.', path: "/paths//a/get/security/0/oauth/1" },
    ]);
  });
});
