/**
 * @module Runs the enabled rules over parsed data: the cached node-rule walk, then the skeleton walk of the
 * document rules. Returns unlocated problems (rule, message, source path), deduplicated like Spectral's.
 */

import { RULES } from "./registry";
import type { LintRule, RawProblem } from "./rule";
import type { OasVersion, RuleSetting, Severity } from "./types";
import { RefResolver } from "./util/resolver";
import { UNLIMITED, type WorkBudget } from "../work-budget";
import { walkFragments, type BoundNodeRule, type FragmentCache } from "./walk/fragments";
import { walkSkeleton, type BoundDocumentRule, type SkeletonCache } from "./walk/skeleton";

/** The rules one run applies, with their effective severities. */
export interface RulePlan {
  version: OasVersion;
  /** Per-rule caches (`ctx.store`), by rule index; they live as long as the plan. */
  stores: readonly WeakMap<object, unknown>[];
  rules: readonly LintRule[];
  severities: readonly Severity[];
  node: readonly BoundNodeRule[];
  /** Indexes (into `rules`) of the document rules: their visitors are created afresh on every run. */
  document: readonly number[];
  /** Problems of the `unit` document rules per path item, kept between the runs of a session (walk/skeleton.ts). */
  skeleton: SkeletonCache;
}

/** Picks the rules enabled for `version` under `settings` (unknown ids are ignored). */
export function planRules(version: OasVersion, settings: Record<string, RuleSetting> = {}): RulePlan {
  const rules: LintRule[] = [];
  const severities: Severity[] = [];
  const node: BoundNodeRule[] = [];
  const document: number[] = [];
  const stores: WeakMap<object, unknown>[] = [];
  for (const rule of RULES) {
    const setting = settings[rule.id] ?? rule.severityFor?.[version] ?? rule.severity;
    if (setting === "off" || !rule.formats.includes(version)) continue;
    const index = rules.length;
    rules.push(rule);
    severities.push(setting);
    stores.push(new WeakMap());
    if (rule.scope === "node") node.push({ index, visitor: rule.create(), resolved: rule.resolved !== false, store: stores[index] });
    else document.push(index);
  }
  return { version, stores, rules, severities, node, document, skeleton: new WeakMap() };
}

export interface RunStats {
  fragmentsWalked: number;
  fragmentsReused: number;
  /** Distinct edges (a unit or a `$ref` target in one walk context) the walk made; reused fragments make none. */
  edgesMade: number;
  /** The walk stopped at the lint budget (`LINT_BUDGET.maxEdges`): node rules did not see the rest. */
  budgetReached: boolean;
  /** The node-rule walk updated the session's last union (walk/fragments.ts UnionState) instead of re-taking it. */
  incremental?: boolean;
  /**
   * Milliseconds (performance.now) spent in the run's phases: the node-rule walk (new fragments walked, and the
   * union of cached ones), the document rules' skeleton walk, and deduplication. For the benchmarks.
   */
  phases?: { fragments: number; skeleton: number; dedupe: number };
}

/**
 * Runs `plan` over `root` (`resolver`: for `root`, possibly carried over from the previous version's). `cache` carries node-rule results between runs of a session (keyed by subtree
 * identity); document rules are re-created every time, and re-run except `unit` ones in unchanged path items.
 * `work` bounds the node-rule walk (throws BudgetExceeded once spent).
 */
export function runRules(root: Record<string, unknown>, plan: RulePlan, cache?: FragmentCache, resolver = new RefResolver(root), work: WorkBudget = UNLIMITED): { problems: RawProblem[]; stats: RunStats } {
  const t0 = performance.now();
  // A session's cache (given) also keeps the last union, which the next run updates instead of re-taking it.
  const walked = walkFragments(root, plan.version, plan.node, resolver, cache ?? new WeakMap(), cache !== undefined, work);
  const t1 = performance.now();
  const document: BoundDocumentRule[] = [];
  for (const index of plan.document) {
    const rule = plan.rules[index];
    if (rule.scope === "document") document.push({ index, visitor: rule.create(), store: plan.stores[index], unit: rule.unit === true });
  }
  const skeleton = walkSkeleton(root, plan.version, document, resolver, walked.refs, plan.skeleton);
  const t2 = performance.now();
  const problems = dedupe([...walked.problems, ...skeleton]);
  const phases = { fragments: t1 - t0, skeleton: t2 - t1, dedupe: performance.now() - t2 };
  return { problems, stats: { fragmentsWalked: walked.walked, fragmentsReused: walked.reused, edgesMade: walked.edgesMade, budgetReached: walked.budgetReached, incremental: walked.incremental === true, phases } };
}

/** Spectral's fingerprint: same rule, same path, same message → one problem. */
function dedupe(problems: RawProblem[]): RawProblem[] {
  const seen = new Set<string>();
  const out: RawProblem[] = [];
  for (const p of problems) {
    const key = problemKey(p);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

const keys = new WeakMap<RawProblem, string>();

/**
 * A problem's fingerprint (rule, path, message), memoised per problem object: a session's cached fragments hand
 * the same problem objects to every run, which would otherwise build ~1,000 key strings twice a keystroke.
 */
export function problemKey(p: RawProblem): string {
  let key = keys.get(p);
  if (key === undefined) keys.set(p, (key = `${p.rule}\u0000${p.path.join("\u0001")}\u0000${p.message}`));
  return key;
}
