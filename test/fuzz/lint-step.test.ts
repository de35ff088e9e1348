/**
 * @module The upload's lint block when lint cannot run (the publish goes on with the build's findings and a note),
 * and when one rule fires thousands of times (listed in part, counted in full).
 */
import { expect, it } from "vitest";
import petstoreV3 from "../fixtures/petstore-v3.yaml?raw";
import { buildReference } from "../../worker/openapi/build";
import { createBudget } from "../../worker/openapi/work-budget";
import { lintData } from "../../worker/openapi/lint/lint-document";
import { lintForUpload, MAX_ISSUES_PER_RULE, MAX_STORED_LINT_CHARS, storedLintJson, storedLintReport } from "../../worker/publish/lint-step";

it("a publish with no time left skips lint with a note instead of failing", () => {
  const outcome = buildReference({ body: new TextEncoder().encode(petstoreV3) });
  if (!outcome.ok) throw new Error(outcome.message);
  const full = lintForUpload(outcome);
  expect(full.note).toBeUndefined();
  const skipped = lintForUpload(outcome, createBudget({ deadline: 0 }));
  expect(skipped.note).toBe("lint stopped on this definition (the publish had no time left for it); only the build's own findings are listed");
  expect(skipped.issues.length).toBeLessThan(full.issues.length);
});

it("lists at most MAX_ISSUES_PER_RULE problems of a rule, says how many more, and counts them all", () => {
  // 250 operations without description or tags: the same warnings 250 times each.
  const paths = Array.from({ length: 250 }, (_, i) => `  /p${i}:\n    get:\n      operationId: op${i}\n      responses:\n        "200":\n          description: ok\n`).join("");
  const text = `openapi: 3.0.3\ninfo:\n  title: Many\n  version: "1"\n  description: d\n  contact: {name: n}\nservers: [{url: "https://api.test"}]\npaths:\n${paths}`;
  const outcome = buildReference({ body: new TextEncoder().encode(text) });
  if (!outcome.ok) throw new Error(outcome.message);
  const all = lintData(outcome.source.parsed.data as Record<string, unknown>, (path) => outcome.source.parsed.locate(path) ?? { line: 1, column: 1 });
  const perRule = new Map<string, number>();
  for (const p of all) perRule.set(p.rule, (perRule.get(p.rule) ?? 0) + 1);
  expect(perRule.get("operation-description")).toBe(250);

  const lint = lintForUpload(outcome);
  expect(lint.warnings).toBe(all.filter((p) => p.severity === "warning").length);
  expect(lint.errors).toBe(all.filter((p) => p.severity === "error").length);
  expect(lint.truncated).toBe(true);
  const listed = lint.issues.filter((i) => i.rule === "operation-description");
  expect(listed).toHaveLength(MAX_ISSUES_PER_RULE + 1);
  // The "…and N more" issue comes first (no line), then the first problems in document order.
  expect(listed[0]).toMatchObject({ severity: "warning", line: null, more: 250 - MAX_ISSUES_PER_RULE, path: [] });
  expect(listed[0].message).toBe(`…and 150 more like this (only the first ${MAX_ISSUES_PER_RULE} operation-description problems are listed; the counts include all)`);
  expect(lint.issues[0].line).toBeNull();
  expect(listed.slice(1).map((i) => i.path)).toEqual(all.filter((p) => p.rule === "operation-description").slice(0, MAX_ISSUES_PER_RULE).map((p) => p.path));
  for (const rule of perRule.keys()) {
    const shown = lint.issues.filter((i) => i.rule === rule && i.more === undefined).length;
    expect(shown).toBe(Math.min(perRule.get(rule)!, MAX_ISSUES_PER_RULE));
  }
});

it("a stored lint report stays under MAX_STORED_LINT_CHARS whatever its messages quote, and says it was cut", () => {
  const issue = (i: number) => ({ severity: "warning" as const, rule: "r", message: "x".repeat(300_000), line: i, column: 1, path: ["paths", `/p${i}`] });
  const report = { errors: 0, warnings: 50, issues: Array.from({ length: 50 }, (_, i) => issue(i)) };
  const json = storedLintJson(report);
  expect(json.length).toBeLessThanOrEqual(MAX_STORED_LINT_CHARS);
  const stored = JSON.parse(json);
  expect(stored).toMatchObject({ errors: 0, warnings: 50, truncated: true });
  expect(stored.issues.length).toBe(50);
  expect(stored.issues[0].message).toBe(`${"x".repeat(2_000)}…`);
  // A small report is stored as it is.
  const small = { errors: 1, warnings: 0, issues: [{ ...issue(1), message: "m" }] };
  expect(JSON.parse(storedLintJson(small))).toEqual(small);
});

it("reads stored reports: pending, complete, and rows from before issue 12 (an issues array beside the counts)", () => {
  expect(storedLintReport({ lint: "{}", lintErrors: 0, lintWarnings: 0, lintStatus: "pending" })).toBe("pending");
  const report = { errors: 1, warnings: 2, issues: [], note: "n" };
  expect(storedLintReport({ lint: JSON.stringify(report), lintErrors: 1, lintWarnings: 2, lintStatus: "complete" })).toEqual(report);
  const issues = [{ severity: "error", rule: "r", message: "m", line: 1, column: 1, path: [] }];
  expect(storedLintReport({ lint: JSON.stringify(issues), lintErrors: 1, lintWarnings: 3, lintStatus: "complete" })).toEqual({ errors: 1, warnings: 3, issues });
});
