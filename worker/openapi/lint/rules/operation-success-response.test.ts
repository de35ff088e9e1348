import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-success-response", () => {
  it("reports responses without a 2xx or 3xx code", () => {
    expect(
      lintRule(
        "operation-success-response",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              responses:
                "404": {description: missing}
                default: {description: error}
            put:
              responses:
                "2XX": {description: ok}
            post:
              responses:
                "302": {description: moved}
        `,
      ),
    ).toEqual([{ line: 6, message: 'Operation must have at least one "2xx" or "3xx" response.', path: "/paths//a/get/responses" }]);
  });

  it("does not accept the 2XX range in Swagger 2.0", () => {
    expect(lintRule("operation-success-response", `swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        2XX: {description: ok}\n`)).toEqual([
      { line: 6, message: 'Operation must have at least one "2xx" or "3xx" response.', path: "/paths//a/get/responses" },
    ]);
  });
});
