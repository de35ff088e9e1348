/** @module Turns engine findings into located problems: nearest existing path (as Spectral), then its position. */

import type { RulePlan } from "./engine";
import type { RawProblem } from "./rule";
import type { JsonPath, LintProblem } from "./types";
import { closestPath } from "./util/pointer";

/** A source path → 1-based position (of the key, for an object member). */
export type Locate = (path: JsonPath) => { line: number; column: number };

export function finishProblems(root: unknown, plan: RulePlan, problems: readonly RawProblem[], locate: Locate): LintProblem[] {
  const out: LintProblem[] = [];
  const seen = new Set<string>();
  for (const p of problems) {
    const path = closestPath(root, p.path);
    // Spectral's fingerprint uses the path it reports (the nearest existing one): one problem per rule, path, message.
    const key = `${p.rule}\u0000${path.join("\u0001")}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const at = locate(path);
    out.push({ severity: plan.severities[p.rule], rule: plan.rules[p.rule].id, message: p.message, line: at.line, column: at.column, path });
  }
  return out;
}
