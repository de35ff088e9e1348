import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-operationId-unique", () => {
  it("reports every repeat of an operationId after the first", () => {
    expect(
      lintRule(
        "operation-operationId-unique",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths:
          /a:
            get: {operationId: read, responses: {}}
            put: {operationId: write, responses: {}}
          /b:
            get:
              operationId: read
              responses: {}
        `,
      ),
    ).toEqual([{ line: 9, message: "operationId must be unique.", path: "/paths//b/get/operationId" }]);
  });

  it("accepts distinct operationIds", () => {
    expect(lintRule("operation-operationId-unique", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get: {operationId: a, responses: {}}\n    put: {operationId: b, responses: {}}\n`)).toEqual([]);
  });
});
