/**
 * @module The diff engine: `diff(base, revision)` over two built definitions (openapi/build.ts output; any mix of
 * 2.0/3.0/3.1/3.2, since builds are normalised to 3.x) → the changes with oasdiff's ids and levels and a breaking
 * verdict. Platform-free and synchronous; bounded by DIFF_BUDGET (a budget reached keeps what was found and says so).
 */

import type { BuildSuccess } from "../build";
import { toSwagger2Path } from "../pipeline/locate-issues";
import { DiffBudgetExceeded } from "./budget";
import { DiffContext } from "./context";
import { CHECKS } from "./registry";
import { levelOf } from "./rules";
import type { Change, DiffOptions, DiffResult, DiffSide, Level } from "./types";

export type { Change, ChangeOperation, DiffOptions, DiffResult, DiffSide, Level } from "./types";
export { RULES, type DiffRule } from "./rules";

/** A diff side from a successful build: its normalised document, located in the root file it was built from. */
export function sideFromBuild(build: Pick<BuildSuccess, "document" | "source" | "sourceVersion">): DiffSide {
  const parsed = build.source.parsed;
  const swagger2 = build.sourceVersion === "2.0";
  return { document: build.document, locate: (path) => parsed.locate(swagger2 ? toSwagger2Path([...path]) : [...path]) };
}

/** Compares `base` (the published version) with `revision` (the new one). Never throws on any document shape. */
export function diff(base: DiffSide, revision: DiffSide, options: DiffOptions = {}): DiffResult {
  const ctx = new DiffContext(base, revision, options.now ?? Date.now());
  let truncated: string | undefined;
  try {
    for (const check of CHECKS) check.run(ctx);
  } catch (e) {
    if (e instanceof DiffBudgetExceeded) truncated = `the comparison stopped after it ${e.what}; later changes are not listed`;
    else if (e instanceof RangeError) truncated = "the comparison stopped: the definitions nest too deeply to compare; later changes are not listed";
    else throw e;
  }
  const changes: Change[] = ctx.changes;
  if (truncated) changes.push({ id: "diff-budget-reached", level: levelOf("diff-budget-reached"), pointer: "", message: truncated });
  const counts: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const c of changes) counts[c.level]++;
  return { breaking: counts.ERR > 0, changes, counts, ...(truncated ? { truncated } : {}) };
}
