import { describe, expect, it } from "vitest";
import { BudgetExceeded, CLOCK_EVERY, createBudget } from "./work-budget";
import { buildReference, MAX_PUBLISH_WORK_UNITS, publishWorkUnits, PUBLISH_WORK_UNITS, PUBLISH_WORK_UNITS_PER_BYTE } from "./build";
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

describe("publish work units scaled to the body (issue 12)", () => {
  it("keeps the fixed ceiling for small bodies, grows per byte past 20 MB, and stops at the cap", () => {
    expect(publishWorkUnits(0)).toBe(PUBLISH_WORK_UNITS);
    expect(publishWorkUnits(13_000_000)).toBe(PUBLISH_WORK_UNITS);
    expect(publishWorkUnits(47_125_053)).toBe(Math.ceil(47_125_053 * PUBLISH_WORK_UNITS_PER_BYTE));
    expect(publishWorkUnits(100_000_000)).toBe(MAX_PUBLISH_WORK_UNITS);
    expect(publishWorkUnits(1e12)).toBe(MAX_PUBLISH_WORK_UNITS);
  });

  it("raise lifts a budget's ceiling, never lowers it, and keeps what was spent", () => {
    const budget = createBudget({ units: 10 });
    budget.spend("a", 10);
    budget.raise(5);
    expect(budget.units).toBe(10);
    expect(() => budget.spend("a")).toThrow(BudgetExceeded);
    budget.raise(20);
    expect(budget.units).toBe(20);
    budget.spend("a", 8);
    expect(budget.spent).toBe(19);
    expect(() => budget.spend("a", 2)).toThrow(BudgetExceeded);
  });
});

describe("buildReference within a budget", () => {
  const enc = new TextEncoder();

  it("answers 422 over-budget, naming the step, when the work units run out", () => {
    const doc = { openapi: "3.0.0", info: { title: "t", version: "1" }, paths: { "/a": { get: { responses: { 200: { description: "ok" } } } } } };
    const outcome = buildReference({ body: enc.encode(JSON.stringify(doc)), budget: createBudget({ units: 2 }) });
    expect(outcome).toMatchObject({ ok: false, status: 422, code: "over-budget", message: expect.stringMatching(/needed more work than a publish may do \(stopped while walking \$refs\)/) });
  });

  it("weighs a dense schema graph (issue 14: 500 schemas × 20 refs, 2,000 operations) as stored: each target once (issue 12)", () => {
    const body = enc.encode(JSON.stringify(denseGraphDoc(500, 20, 2000)));
    const outcome = buildReference({ body });
    if (!outcome.ok) throw new Error(outcome.message);
    const weight = outcome.weigh(64 * 2 ** 20);
    // As copies it weighed ~0.9 GB; as stored, 2,000 slices of 500 target locations plus 500 targets.
    expect(weight).toMatchObject({ over: false, measured: 2000, maxRefs: 500 });
    expect(weight.chars).toBeLessThan(8 * 2 ** 20);
    expect(weight.chars).toBeGreaterThan(2000 * 500 * 3);
  });

  it("refuses, after one operation, a graph whose one page would parse more than 4 MB of targets", () => {
    const outcome = buildReference({ body: enc.encode(JSON.stringify(denseGraphDoc(500, 20, 10, 9000))) });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.weigh(64 * 2 ** 20)).toMatchObject({ over: true, overBy: "slice", measured: 1, maxRefs: 500 });
  });

  it("stops weighing as soon as the model's limit is passed (the same graph against a 1 MB limit)", () => {
    const outcome = buildReference({ body: enc.encode(JSON.stringify(denseGraphDoc(500, 20, 2000))) });
    if (!outcome.ok) throw new Error(outcome.message);
    const weight = outcome.weigh(2 ** 20);
    expect(weight).toMatchObject({ over: true, overBy: "model", maxRefs: 500 });
    expect(weight.measured).toBeLessThan(1000);
  });
});
