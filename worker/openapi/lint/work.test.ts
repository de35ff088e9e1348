/** Lint's work units (issue 38): the node-rule walk and the rules' own loops spend `options.work`. */
import { describe, expect, it } from "vitest";
import { BudgetExceeded, createBudget } from "../work-budget";
import { lintDataCapped } from "./lint-document";

const at = () => ({ line: 1, column: 1 });

/** A 3.0 document whose one schema is an enum of `n` distinct strings. */
function enumDocument(n: number): Record<string, unknown> {
  const values = Array.from({ length: n }, (_, i) => `v${i}`);
  return { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {}, components: { schemas: { Kind: { type: "string", enum: values } } } };
}

describe("lint work units", () => {
  it("counts the objects the walk visits and the values a rule's loop declares", () => {
    const small = createBudget();
    lintDataCapped(enumDocument(10), at, Infinity, { work: small });
    const large = createBudget();
    lintDataCapped(enumDocument(1_000), at, Infinity, { work: large });
    // duplicated-entry-in-enum reads each value once.
    expect(large.spent - small.spent).toBe(1_000 - 10);
  });

  it("throws BudgetExceeded once the units are spent, before doing the work", () => {
    const work = createBudget({ units: 10_000 });
    expect(() => lintDataCapped(enumDocument(20_000), at, Infinity, { work })).toThrow(BudgetExceeded);
    expect(work.exhausted).toBe(true);
  });

  it("without a budget lints as before", () => {
    const { problems } = lintDataCapped({ ...enumDocument(3), components: { schemas: { Kind: { enum: ["a", "b", "a"] } } } }, at, Infinity);
    expect(problems.map((p) => p.rule)).toContain("duplicated-entry-in-enum");
  });
});
