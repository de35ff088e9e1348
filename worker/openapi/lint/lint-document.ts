/** @module One-off lint of a definition's text: parse once (data and positions), run the rules, locate problems. */

import { BUDGET_NOTES, LINT_BUDGET } from "../budgets";
import { parseDocument } from "../parse";
import { indexJson } from "./source/json-index";
import { planRules, runRules } from "./engine";
import { finishProblems, type Locate } from "./locate-problems";
import { bindRuleset } from "./ruleset";
import type { LintOptions, LintProblem, LintResult, RuleSetting, Severity } from "./types";
import { detectOasVersion } from "./version";

/**
 * Lints a Swagger 2.0 / OpenAPI 3.0–3.2 definition (JSON or YAML) with Spectral's `spectral:oas` rules and
 * defaults. Never throws: a parse failure, a non-OpenAPI document or an unknown version is one problem.
 */
export function lintDocument(text: string, options: LintOptions = {}): LintResult {
  const parsed = parseDocument(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return summarise([{ severity: "error", rule: "parser", message, line: line ?? 1, column: column ?? 1, path: [] }]);
  }
  const { doc } = parsed;
  const root = doc.data as Record<string, unknown>;
  // JSON: one indexing pass (thousands of problems in a 13 MB file); YAML: the parser's node-based locator.
  const locate: Locate = doc.format === "json" ? jsonLocator(text) : (path) => doc.locate(path) ?? { line: 1, column: 1 };
  const warnings: LintProblem[] = doc.warnings.map((w) => ({
    severity: "warning",
    rule: "parser",
    message: w.message,
    line: w.line ?? 1,
    column: w.column ?? 1,
    path: [],
  }));
  return summarise([...warnings, ...lintData(root, locate, options)]);
}

/** Lints already parsed data; `locate` maps a source path to its 1-based position. Problems come sorted by position. */
export function lintData(root: Record<string, unknown>, locate: Locate, options: LintOptions = {}): LintProblem[] {
  return lintDataCapped(root, locate, Infinity, options).problems;
}

/** Problems of one rule that a capped lint counted but did not list. */
export interface OmittedProblems {
  rule: string;
  severity: Severity;
  count: number;
}

/**
 * {@link lintData} listing at most `perRule` problems of each rule (the first ones the walk met) and counting the
 * rest in `omitted`: the upload answer's lint, where locating thousands of copies of one warning costs seconds and
 * shows nothing new. Counts stay exact (deduplication runs on every problem).
 */
export function lintDataCapped(root: Record<string, unknown>, locate: Locate, perRule: number, options: LintOptions = {}): { problems: LintProblem[]; omitted: OmittedProblems[] } {
  const version = detectOasVersion(root);
  if (!version.ok) {
    const at = locate(version.path);
    return { problems: [{ severity: "warning", rule: version.rule, message: version.message, line: at.line, column: at.column, path: version.path }], omitted: [] };
  }
  const settings = ruleSettings(options);
  const plan = planRules(version.version, settings.plan);
  const { problems, stats } = runRules(root, plan, undefined, undefined, options.work);
  const cap = { perRule, omitted: new Map<number, number>() };
  // Per-path overrides settle the listed problems; omitted counts are per planned rule, before overrides.
  const out = settings.settle(finishProblems(root, plan, problems, locate, Number.isFinite(perRule) ? cap : undefined));
  if (stats.budgetReached) out.push(budgetProblem());
  const omitted = [...cap.omitted].map(([rule, count]) => ({ rule: plan.rules[rule].id, severity: plan.severities[rule], count }));
  return { problems: out.sort(compareProblems), omitted };
}

/**
 * The rules to plan under `options` (the ruleset's base, then `options.rules`) and the pass that applies the
 * ruleset's overrides to located problems (a rule an override turns off there, or raises, per problem path).
 */
export function ruleSettings(options: LintOptions): { plan: Record<string, RuleSetting>; settle: (problems: LintProblem[]) => LintProblem[] } {
  if (!options.ruleset) return { plan: options.rules ?? {}, settle: (problems) => problems };
  const bound = bindRuleset(options.ruleset, options.file);
  return {
    plan: { ...bound.plan, ...options.rules },
    settle: (problems) => {
      const out: LintProblem[] = [];
      for (const p of problems) {
        const settled = bound.settle(p);
        if (settled) out.push(settled);
      }
      return out;
    },
  };
}

/** The warning a run that reached the lint budget carries (at the top of the document). */
export function budgetProblem(): LintProblem {
  return { severity: "warning", rule: "lint-budget", message: BUDGET_NOTES.lintStopped(LINT_BUDGET.maxEdges), line: 1, column: 1, path: [] };
}

function jsonLocator(text: string): Locate {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let index: ReturnType<typeof indexJson> | undefined;
  return (path) => (index ??= indexJson(source)).locate(path);
}

/** Sorts problems by position and counts errors and warnings. */
export function summarise(problems: LintProblem[]): LintResult {
  problems.sort(compareProblems);
  let errors = 0;
  let warnings = 0;
  for (const p of problems) {
    if (p.severity === "error") errors++;
    else if (p.severity === "warning") warnings++;
  }
  return { problems, errors, warnings };
}

function compareProblems(a: LintProblem, b: LintProblem): number {
  return a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
