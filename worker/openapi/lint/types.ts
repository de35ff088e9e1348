/** @module Public shapes of the lint engine: problems, results, severities and rule configuration. */

import type { WorkBudget } from "../work-budget";

/** How serious a problem is; the names of Spectral's severities (`warn` spelled out). */
export type Severity = "error" | "warning" | "info" | "hint";

/** A severity, or `off` to disable a rule. */
export type RuleSetting = Severity | "off";

/** A JSON-pointer path as segments (unescaped); array indexes are numbers. */
export type JsonPath = (string | number)[];

/** One finding. `line` and `column` are 1-based and point at the problem's node (its key, for an object member). */
export interface LintProblem {
  severity: Severity;
  /** A Spectral `spectral:oas` rule id, or `parser` / `unsupported-version` / `not-openapi` / `invalid-ref` / `pattern-not-checked` / `lint-budget`. */
  rule: string;
  message: string;
  line: number;
  column: number;
  path: JsonPath;
}

/** Problems sorted by position (then rule), with the counts the upload route and the editor show. */
export interface LintResult {
  problems: LintProblem[];
  errors: number;
  warnings: number;
}

/**
 * A validated ruleset (portico.yaml `lint:`, parsed by ruleset.ts `parseRuleset`), plain data: it crosses
 * postMessage to the editor's lint worker.
 */
export interface LintRuleset {
  extends: "recommended" | "all" | "off";
  rules: Record<string, RuleSetting>;
  overrides: { files: string[]; rules: Record<string, RuleSetting> }[];
}

export interface LintOptions {
  /** Per-rule overrides: a severity, or `off`. Rules that are off by default are enabled by giving a severity. */
  rules?: Record<string, RuleSetting>;
  /** A portal's ruleset (portico.yaml `lint:`, see ruleset.ts); `rules` above win over its base severities. */
  ruleset?: LintRuleset;
  /** The linted file's path in its archive, for the ruleset's override globs (undefined: every file glob matches). */
  file?: string;
  /**
   * Work the run may do (work-budget.ts units: one per object the node rules visit, plus what a rule's own loops
   * declare); once spent the run throws BudgetExceeded. Unset: unbounded (the editor, the command line).
   */
  work?: WorkBudget;
}

/** The OpenAPI family a document follows (Spectral's `oas2`, `oas3_0`, `oas3_1`, `oas3_2` formats). */
export type OasVersion = "2.0" | "3.0" | "3.1" | "3.2";
