/** @module Test helpers: lint inline YAML and keep what a rule test asserts on. */

import { lintDocument } from "./lint-document";
import { RULES_BY_ID } from "./registry";
import type { LintProblem } from "./types";

/** A problem as rule tests compare it: 1-based line, message, path as a JSON pointer without `#`. */
export interface Finding {
  line: number;
  message: string;
  path: string;
}

/** The problems one rule finds in `text` (the rule is enabled as a warning if it is off by default). */
export function lintRule(rule: string, text: string): Finding[] {
  const severity = RULES_BY_ID.get(rule)?.severity;
  const { problems } = lintDocument(dedentText(text), { rules: { [rule]: severity === undefined || severity === "off" ? "warning" : severity } });
  return problems.filter((p) => p.rule === rule).map(toFinding);
}

function toFinding(p: LintProblem): Finding {
  return { line: p.line, message: p.message, path: "/" + p.path.join("/") };
}

/** Strips the common indentation of a template literal (a leading newline is dropped). */
export function dedentText(text: string): string {
  const lines = text.replace(/^\n/, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
}
