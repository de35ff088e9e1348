import { describe, expect, it, vi } from "vitest";
import { denseGraphDoc } from "../../schema-view/testing/hostile";
import { lintDocument } from "../lint-document";

// A small budget, so that a small dense graph reaches it (the real one is 1,000,000 edges).
vi.mock("../../budgets", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../budgets")>();
  return { ...actual, LINT_BUDGET: { maxEdges: 200 } };
});

describe("the lint walk budget", () => {
  it("stops following references past the budget and says so, instead of walking on", () => {
    const result = lintDocument(JSON.stringify(denseGraphDoc(60, 10, 100)));
    const stopped = result.problems.filter((p) => p.rule === "lint-budget");
    expect(stopped).toEqual([{
      severity: "warning", rule: "lint-budget", line: 1, column: 1, path: [],
      message: "lint stopped: the definition has more than 200 schema references to follow; later parts are not checked",
    }]);
  });

  it("leaves a definition within the budget alone", () => {
    const result = lintDocument(JSON.stringify(denseGraphDoc(5, 2, 3)));
    expect(result.problems.filter((p) => p.rule === "lint-budget")).toEqual([]);
  });
});
