import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("operation-operationId", () => {
  it("reports operations without an operationId (only HTTP methods are operations)", () => {
    expect(
      lintRule(
        "operation-operationId",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /pets:
            parameters: []
            x-internal: {}
            get:
              operationId: listPets
              responses: {}
            delete:
              responses: {}
        `,
      ),
    ).toEqual([{ line: 10, message: 'Operation must have "operationId".', path: "/paths//pets/delete" }]);
  });

  it("treats 3.2's query method as an operation", () => {
    expect(lintRule("operation-operationId", `openapi: 3.2.0\ninfo: {title: T, version: "1"}\npaths:\n  /search:\n    query:\n      responses: {}\n`)).toEqual([
      { line: 5, message: 'Operation must have "operationId".', path: "/paths//search/query" },
    ]);
  });
});
