import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-callbacks-in-callbacks", () => {
  it("reports callbacks declared by a callback's operation", () => {
    expect(
      lintRule(
        "oas3-callbacks-in-callbacks",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /subscribe:
            post:
              responses: {}
              callbacks:
                onEvent:
                  "{$request.body#/url}":
                    post:
                      responses: {}
                      callbacks:
                        nested: {}
        `,
      ),
    ).toEqual([{ line: 12, message: "Callbacks should not be defined within a callback", path: "/paths//subscribe/post/callbacks/onEvent/{$request.body#~1url}/post/callbacks".replace("~1", "/") }]);
  });
});
