/** @module Turns engine findings into located problems: nearest existing path (as Spectral), then its position. */

import type { RulePlan } from "./engine";
import type { RawProblem } from "./rule";
import type { JsonPath, LintProblem } from "./types";
import { closestPath } from "./util/pointer";

/** A source path → 1-based position (of the key, for an object member). */
export type Locate = (path: JsonPath) => { line: number; column: number };

export function finishProblems(root: unknown, plan: RulePlan, problems: readonly RawProblem[], locate: Locate): LintProblem[] {
  return problems.map((p) => {
    const path = closestPath(root, p.path);
    const at = locate(path);
    return { severity: plan.severities[p.rule], rule: plan.rules[p.rule].id, message: p.message, line: at.line, column: at.column, path };
  });
}
