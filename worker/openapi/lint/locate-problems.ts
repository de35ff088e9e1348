/** @module Turns engine findings into located problems: nearest existing path (as Spectral), then its position. */

import { problemKey, type RulePlan } from "./engine";
import type { RawProblem } from "./rule";
import type { JsonPath, LintProblem } from "./types";
import { closestPath } from "./util/pointer";

/** A source path → 1-based position (of the key, for an object member). */
export type Locate = (path: JsonPath) => { line: number; column: number };

/**
 * Locations kept from the previous run of a session (by problem object: cached fragments hand the same objects
 * to every run), so that an edit locates only the problems it can have moved.
 */
export interface LocationMemo {
  /** The previous run's located problems, by the engine's problem object. */
  prev: ReadonlyMap<RawProblem, LintProblem> | undefined;
  /** Filled with this run's (for the next run's `prev`). */
  next: Map<RawProblem, LintProblem>;
  /** `before` (the previous run's location of `p`) as it stands in the current text, or undefined to locate anew. */
  carry(p: RawProblem, before: LintProblem): LintProblem | undefined;
}

/**
 * Locates `problems` (deduplicated on the path reported, as Spectral does). With `cap`, only the first
 * `cap.perRule` problems of each rule are located and returned; the others are counted in `cap.omitted` (by rule
 * index): an 8,000-operation definition with the same warning on every operation locates 100 of them, not 8,000.
 */
export function finishProblems(root: unknown, plan: RulePlan, problems: readonly RawProblem[], locate: Locate, cap?: { perRule: number; omitted: Map<number, number> }, memo?: LocationMemo): LintProblem[] {
  const out: LintProblem[] = [];
  const seen = new Set<string>();
  const kept = new Map<number, number>();
  for (const p of problems) {
    const before = memo?.prev?.get(p);
    const carried = before && memo!.carry(p, before);
    const path = carried ? carried.path : closestPath(root, p.path);
    // Spectral's fingerprint uses the path it reports (the nearest existing one): one problem per rule, path, message.
    // The nearest existing path is the reported one itself, as a rule: its key is the engine's.
    const key = path.length === p.path.length ? problemKey(p) : `${p.rule}\u0000${path.join("\u0001")}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (cap) {
      const n = kept.get(p.rule) ?? 0;
      if (n >= cap.perRule) {
        cap.omitted.set(p.rule, (cap.omitted.get(p.rule) ?? 0) + 1);
        continue;
      }
      kept.set(p.rule, n + 1);
    }
    let located = carried;
    if (!located) {
      const at = locate(path);
      located = { severity: plan.severities[p.rule], rule: plan.rules[p.rule].id, message: p.message, line: at.line, column: at.column, path };
    }
    memo?.next.set(p, located);
    out.push(located);
  }
  return out;
}
