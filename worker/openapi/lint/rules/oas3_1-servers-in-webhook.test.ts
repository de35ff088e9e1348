import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3_1-servers-in-webhook", () => {
  it("reports servers on a webhook's operation", () => {
    expect(
      lintRule(
        "oas3_1-servers-in-webhook",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        webhooks:
          newPet:
            post:
              servers: [{url: "https://hooks.acme.io"}]
              responses: {}
        `,
      ),
    ).toEqual([{ line: 6, message: "Servers should not be defined in a webhook.", path: "/webhooks/newPet/post/servers" }]);
  });
});
