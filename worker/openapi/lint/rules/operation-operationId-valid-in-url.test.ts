import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-operationId-valid-in-url", () => {
  it("reports an operationId with characters not allowed in a URL", () => {
    expect(
      lintRule(
        "operation-operationId-valid-in-url",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get:
              operationId: list pets
              responses: {}
            put:
              operationId: "pets:update/[id]~1"
              responses: {}
        `,
      ),
    ).toEqual([{ line: 6, message: "operationId must not contain characters that are invalid when used in URL.", path: "/paths//a/get/operationId" }]);
  });
});
