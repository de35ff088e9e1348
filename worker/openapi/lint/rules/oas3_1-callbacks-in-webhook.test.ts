import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3_1-callbacks-in-webhook", () => {
  it("reports callbacks on a webhook's operation", () => {
    expect(
      lintRule(
        "oas3_1-callbacks-in-webhook",
        `
        openapi: 3.1.0
        info: {title: T, version: "1"}
        webhooks:
          newPet:
            post:
              callbacks: {}
              responses: {}
        `,
      ),
    ).toEqual([{ line: 6, message: "Callbacks should not be defined in a webhook.", path: "/webhooks/newPet/post/callbacks" }]);
  });
});
