import { describe, expect, it, vi } from "vitest";
import { lintRule } from "../test-helpers";

// A tiny matcher budget, so that one example spends it (the real one is 20,000,000 characters per lint run).
vi.mock("../../budgets", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../budgets")>();
  return { ...actual, PATTERN_BUDGET: { ...actual.PATTERN_BUDGET, maxCharsPerLint: 300 } };
});

const doc = (long: string) => JSON.stringify({
  openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {},
  components: {
    schemas: {
      A: { type: "string", pattern: "^[a-z]+$", example: "ABC" },
      B: { type: "string", pattern: "^[0-9]+$", example: long },
      C: { type: "string", pattern: "^x$", example: "y" },
      D: { type: "object", patternProperties: { "^x-": { type: "integer" } }, additionalProperties: { type: "string" }, example: { "x-a": "s" } },
    },
  },
}, null, 1);

describe("the matcher budget of a lint run", () => {
  it("checks patterns until the run's budget is spent, then lets strings pass and leaves examples with patternProperties unchecked", () => {
    expect(lintRule("oas3-valid-schema-example", doc("z".repeat(400))).map((f) => f.path)).toEqual([
      "/components/schemas/A/example",
      "/components/schemas/B/example", // 400 characters: tested (the budget goes negative), then nothing more
    ]);
  });

  it("checks everything while within the budget", () => {
    expect(lintRule("oas3-valid-schema-example", doc("z")).map((f) => f.path)).toEqual([
      "/components/schemas/A/example",
      "/components/schemas/B/example",
      "/components/schemas/C/example",
      "/components/schemas/D/example/x-a",
    ]);
  });
});

describe("prepared schemas keep their stand-ins when copied", () => {
  it("checks the pattern of a Swagger 2.0 schema whose boolean `required` is dropped", () => {
    const doc = JSON.stringify({
      swagger: "2.0", info: { title: "T", version: "1" }, paths: {},
      definitions: { Code: { type: "string", required: true, pattern: "^[a-z]+$", example: "ABC" } },
    });
    expect(lintRule("oas2-valid-schema-example", doc).map((f) => f.message)).toEqual(['"example" property must match pattern "^[a-z]+$"']);
  });
});
