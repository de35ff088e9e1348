import { describe, expect, it } from "vitest";
import { lintDocument } from "./lint-document";

describe("lintDocument", () => {
  it("turns a syntax error into one located parser problem", () => {
    const result = lintDocument("openapi: 3.1.0\ninfo: {title: T\npaths: {}\n");
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ severity: "error", rule: "parser", line: 3 });
    expect(result.errors).toBe(1);
  });

  it("gives an unknown future version one clear problem and runs nothing else", () => {
    const { problems } = lintDocument("openapi: 3.3.0\ninfo: {title: T, version: '1'}\npaths: {}\n");
    expect(problems).toEqual([
      {
        severity: "warning",
        rule: "unsupported-version",
        message: "OpenAPI 3.3.0 is not supported: Portico lints Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2, so the document was not linted.",
        line: 1,
        column: 1,
        path: ["openapi"],
      },
    ]);
  });

  it("says when a document is not OpenAPI at all", () => {
    expect(lintDocument('{"name": "package"}').problems.map((p) => p.rule)).toEqual(["not-openapi"]);
  });

  it("locates problems in JSON on the member's line", () => {
    const json = JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/a/": {} } }, null, 2);
    const slash = lintDocument(json).problems.find((p) => p.rule === "path-keys-no-trailing-slash");
    expect(slash).toEqual({ severity: "warning", rule: "path-keys-no-trailing-slash", message: "Path must not end with slash.", line: 8, column: 5, path: ["paths", "/a/"] });
  });

  it("applies severity overrides and turns rules off", () => {
    const text = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n";
    const rules = (r: ReturnType<typeof lintDocument>) => r.problems.map((p) => `${p.rule}:${p.severity}`);
    expect(rules(lintDocument(text))).toEqual(["oas3-api-servers:warning", "info-contact:warning", "info-description:warning"]);
    expect(rules(lintDocument(text, { rules: { "oas3-api-servers": "off", "info-contact": "error", "info-license": "hint" } }))).toEqual([
      "info-contact:error",
      "info-description:warning",
      "info-license:hint",
    ]);
  });

  it("counts errors and warnings", () => {
    const result = lintDocument("openapi: 3.0.3\ninfo: {title: T, version: 1}\npaths: {}\n");
    expect([result.errors, result.warnings]).toEqual([1, 3]);
  });
});
