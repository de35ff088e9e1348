import { describe, expect, it } from "vitest";
import { BudgetExceeded, CLOCK_EVERY, createBudget } from "./work-budget";
import { buildReference } from "./build";
import { denseGraphDoc } from "./schema-view/testing/hostile";

describe("createBudget", () => {
  it("throws BudgetExceeded naming the step once its units are spent", () => {
    const budget = createBudget({ units: 3 });
    budget.spend("a", 3);
    expect(budget.exhausted).toBe(false);
    expect(() => budget.spend("walking $refs")).toThrowError(new BudgetExceeded("walking $refs", "work"));
    expect(budget.exhausted).toBe(true);
  });

  it("reads its clock once per CLOCK_EVERY units and stops past the deadline", () => {
    let now = 0;
    let reads = 0;
    const budget = createBudget({ deadline: 10, now: () => (reads++, now) });
    budget.spend("x", CLOCK_EVERY - 1);
    expect(reads).toBe(0);
    now = 11;
    expect(() => budget.spend("parsing YAML")).toThrow(/parsing YAML ran past the publish deadline/);
    expect(reads).toBe(1);
    expect(() => budget.check("linting")).toThrow(/linting ran past/);
  });
});

describe("buildReference within a budget", () => {
  const enc = new TextEncoder();

  it("answers 422 over-budget, naming the step, when the work units run out", () => {
    const doc = { openapi: "3.0.0", info: { title: "t", version: "1" }, paths: { "/a": { get: { responses: { 200: { description: "ok" } } } } } };
    const outcome = buildReference({ body: enc.encode(JSON.stringify(doc)), budget: createBudget({ units: 2 }) });
    expect(outcome).toMatchObject({ ok: false, status: 422, code: "over-budget", message: expect.stringMatching(/needed more work than a publish may do \(stopped while walking \$refs\)/) });
  });

  it("weighs a dense schema graph's slices (issue 14: 500 schemas × 20 refs, 2,000 operations) before any is built", () => {
    const body = enc.encode(JSON.stringify(denseGraphDoc(500, 20, 2000)));
    const outcome = buildReference({ body });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.weigh(64 * 2 ** 20)).toMatchObject({ over: true, maxRefs: 500 });
    expect(outcome.weigh(64 * 2 ** 20).measured).toBeLessThan(200);
  });
});
