import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas2-operation-formData-consume-check", () => {
  it("reports formData parameters without a form media type in consumes", () => {
    expect(
      lintRule(
        "oas2-operation-formData-consume-check",
        `
        swagger: "2.0"
        info: {title: T, version: "1"}
        paths:
          /a:
            post:
              consumes: [application/json]
              parameters: [{name: f, in: formData, type: string}]
              responses: {}
            put:
              consumes: [multipart/form-data]
              parameters: [{name: f, in: formData, type: string}]
              responses: {}
        `,
      ),
    ).toEqual([
      {
        line: 5,
        message: 'Operations with "in: formData" parameter must include "application/x-www-form-urlencoded" or "multipart/form-data" in their "consumes" property.',
        path: "/paths//a/post",
      },
    ]);
  });
});
