/**
 * @module The node-rule walk. The document is cut into fragments: the root, each "unit" (a path item, a
 * webhook, a component, a 2.0 definition...) and each `$ref` target per walk context. A fragment is walked once
 * (all rules together), remembers its problems, the fragments it leads to and the `$ref`s its rules resolved;
 * it is reused while its subtree (by identity), its context and those `$ref` targets are unchanged. One run is
 * the union of the fragments reachable from the root: Spectral's resolved-document semantics (a schema reached
 * from `content` is linted as content) without re-walking shared components once per reference.
 */

import { LINT_BUDGET } from "../../budgets";
import type { RawProblem } from "../rule";
import type { OasVersion } from "../types";
import { UNLIMITED, type WorkBudget } from "../../work-budget";
import type { RefResolver } from "../util/resolver";
import { edge, fragmentFor, MODE_BOTH, nextRun, type BoundNodeRule, type Edge, type FragmentCache, type WalkResult } from "./fragment";
import { keepUnion, release, unions, updateUnion } from "./union";
import { Walker } from "./walker";

export { LINT_STEP } from "./walker";
export { MODE_RESOLVED, MODE_SOURCE, type BoundNodeRule, type Fragment, type FragmentCache, type WalkResult } from "./fragment";

/**
 * Union of the fragments reachable from the root, walking those not cached. `session`: keep the union for the
 * next run on this cache, which then updates it when its resolver was carried from this one's (see UnionState).
 * `work` is spent per object visited and by the rules' own loops; BudgetExceeded propagates out of the walk.
 */
export function walkFragments(
  root: Record<string, unknown>,
  version: OasVersion,
  rules: readonly BoundNodeRule[],
  resolver: RefResolver,
  cache: FragmentCache,
  session = false,
  work: WorkBudget = UNLIMITED,
): WalkResult {
  const walker = new Walker(version, rules, resolver, work);
  const state = unions.get(cache);
  if (state) {
    if (session) {
      const updated = updateUnion(root, walker, resolver, cache, state);
      if (updated) return updated;
    }
    release(state, resolver);
    unions.delete(cache);
  }
  const problems: RawProblem[] = [];
  const refs = new Set<string>();
  const run = nextRun();
  // The walker interns edges (one object per target and context in a run), so an edge reached from many
  // fragments (a dense graph's schema, referenced by hundreds of others in the same context) is followed once.
  const queue: Edge[] = [edge(root, [], { flags: 0, depth: 0, keys: [] }, MODE_BOTH)];
  let walked = 0;
  let reused = 0;
  let budgetReached = false;
  for (let i = 0; i < queue.length; i++) {
    if (i >= LINT_BUDGET.maxEdges) {
      budgetReached = true;
      break;
    }
    const next = queue[i];
    if (next.run === run) continue;
    next.run = run;
    const found = fragmentFor(next, walker, resolver, cache);
    const fragment = found.fragment;
    if (found.walked) walked++;
    else reused++;
    next.fragment = fragment;
    next.fragmentIn = cache;
    if (fragment.run === run) continue;
    fragment.run = run;
    for (const p of fragment.problems) problems.push(p);
    for (const r of fragment.refs) refs.add(r);
    for (const e of fragment.edges) queue.push(e);
  }
  if (session && !budgetReached) keepUnion(queue, run, resolver, cache);
  return { problems, refs, walked, reused, edgesMade: walker.edgesMade, budgetReached };
}
