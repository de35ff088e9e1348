/**
 * @module A lint session's last union of fragments (walk/fragments.ts explains the walk), updated per edit instead of
 * taken again: members by key, their problems, the `$ref`s their sources write (counted) and an index from each
 * `$ref` to the members depending on it.
 */

import { LINT_BUDGET } from "../../budgets";
import type { RawProblem } from "../rule";
import type { RefResolver } from "../util/resolver";
import { edge, fragmentFor, MODE_BOTH, nextRun, type Edge, type Fragment, type FragmentCache, type UnionState, type WalkResult } from "./fragment";
import type { Walker } from "./walker";

/** Each fragment cache's session union. */
export const unions = new WeakMap<FragmentCache, UnionState>();

/** Records the full pass's union (the fragments taken by `run`, in `queue`'s order) as the session's state. */
export function keepUnion(queue: readonly Edge[], run: number, resolver: RefResolver, cache: FragmentCache): void {
  const state: UnionState = { resolver, members: new Map(), withProblems: new Map(), refCounts: new Map(), refs: new Set(), index: new Map(), edgeTotal: 1 };
  for (const e of queue) {
    const fragment = e.fragment;
    if (!fragment || fragment.run !== run || e.fragmentIn !== cache) continue;
    const known = state.members.get(e.key);
    if (known) {
      if (known.fragment === fragment) continue;
      // Two fragments under one key (not expected: a key is a position in this document): keep no state.
      release(state, resolver);
      return;
    }
    admit(state, e, fragment);
    countRefs(state, fragment.refs, 1, () => {});
    fragment.checked = resolver;
  }
  unions.set(cache, state);
}

/** Counts `refs` in (`by` 1) or out (`by` -1); `own` is called before the set of references first changes. */
function countRefs(state: UnionState, refs: readonly string[], by: 1 | -1, own: () => void): void {
  for (const r of refs) {
    const n = (state.refCounts.get(r) ?? 0) + by;
    if (n === 0 || (n === 1 && by === 1)) own();
    if (n === 0) {
      state.refCounts.delete(r);
      state.refs.delete(r);
    } else {
      state.refCounts.set(r, n);
      if (n === 1) state.refs.add(r);
    }
  }
}

/** Adds `fragment` (reached by `e`) to the union's members, problems and index (its references: countRefs). */
function admit(state: UnionState, e: Edge, fragment: Fragment): void {
  state.members.set(e.key, { edge: e, fragment });
  fragment.union = state;
  if (fragment.problems.length) state.withProblems.set(e.key, fragment);
  if (fragment.deps) {
    for (const ref of fragment.deps.keys()) {
      let keys = state.index.get(ref);
      if (!keys) state.index.set(ref, (keys = new Set()));
      keys.add(e.key);
    }
  }
  state.edgeTotal += fragment.edges.length;
}

/** Takes the member under `key` out (its deps held under the union's resolver until now). */
function evict(state: UnionState, key: string, fragment: Fragment): void {
  state.members.delete(key);
  fragment.union = undefined;
  fragment.checked = state.resolver;
  state.withProblems.delete(key);
  if (fragment.deps) for (const ref of fragment.deps.keys()) state.index.get(ref)?.delete(key);
  state.edgeTotal -= fragment.edges.length;
}

/**
 * Dissolves a union before the full pass: members go back to their own `checked` (the union's resolver, unless
 * this run already validated them under `current`).
 */
export function release(state: UnionState, current: RefResolver): void {
  for (const { fragment } of state.members.values()) {
    if (fragment.union !== state) continue;
    fragment.union = undefined;
    if (fragment.checked !== current) fragment.checked = state.resolver;
  }
}

/**
 * The incremental run: updates `state` to `root` and `resolver` (carried from the state's), or undefined when it
 * cannot (then the full pass runs; `state` is left for {@link release}). Cost: the fragments on the edit's path,
 * the members depending on a dropped reference, and their edges; not the union.
 */
export function updateUnion(root: Record<string, unknown>, walker: Walker, resolver: RefResolver, cache: FragmentCache, state: UnionState): WalkResult | undefined {
  const dropped = resolver.droppedSince(state.resolver);
  if (!dropped) return undefined;
  const before = state.resolver;
  const run = nextRun();
  let walked = 0;
  let reused = 0;
  let refsShared = true;
  const own = (): void => {
    if (!refsShared) return;
    state.refs = new Set(state.refs);
    refsShared = false;
  };
  // Members whose deps hold a dropped reference: looked at after the root's side (which may replace them).
  const suspects = new Set<string>();
  for (const ref of dropped) for (const key of state.index.get(ref) ?? []) suspects.add(key);
  /** Whether the member's deps hold under `resolver` (they held under `before`). */
  const holds = (f: Fragment): boolean => {
    if (!f.deps || f.checked === resolver) return true;
    if (!resolver.depsHold(f.deps, before)) return false;
    f.checked = resolver;
    return true;
  };
  const queue: Edge[] = [edge(root, [], { flags: 0, depth: 0, keys: [] }, MODE_BOTH)];
  // Bounded by the budget like the full pass (each member is replaced at most once per node).
  const take = (): boolean => {
    for (let i = 0; i < queue.length; i++) {
      if (i >= LINT_BUDGET.maxEdges) return false;
      const e = queue[i];
      if (e.run === run) continue;
      e.run = run;
      const member = state.members.get(e.key);
      if (member && member.edge.node === e.node && holds(member.fragment)) continue;
      // The member's own fragment was just found wanting: not taken again from the cache.
      const found = fragmentFor(e, walker, resolver, cache, member?.fragment);
      const fragment = found.fragment;
      if (found.walked) walked++;
      else reused++;
      fragment.checked = resolver;
      e.fragment = fragment;
      e.fragmentIn = cache;
      // A lost edge may leave members nobody reaches any more: the full pass decides.
      if (member && lostEdge(member.fragment, fragment)) return false;
      // The new references counted in before the old ones out: the set changes (and is copied, as the last run
      // handed it out) only when a reference really comes or goes, else the next rules see the same set.
      countRefs(state, fragment.refs, 1, own);
      if (member) {
        countRefs(state, member.fragment.refs, -1, own);
        evict(state, e.key, member.fragment);
      }
      admit(state, e, fragment);
      if (state.edgeTotal >= LINT_BUDGET.maxEdges) return false;
      for (const next of fragment.edges) queue.push(next);
    }
    queue.length = 0;
    return true;
  };
  if (!take()) return undefined;
  for (const key of suspects) {
    const member = state.members.get(key);
    if (!member || holds(member.fragment)) continue;
    // Its node may have been replaced without its referrers bringing the new one: only the full pass can tell.
    if (!stillAt(root, member.edge)) return undefined;
    queue.push(member.edge);
    member.edge.run = 0;
    if (!take()) return undefined;
  }
  state.resolver = resolver;
  const problems: RawProblem[] = [];
  for (const f of state.withProblems.values()) for (const p of f.problems) problems.push(p);
  return { problems, refs: state.refs, walked, reused, edgesMade: walker.edgesMade, budgetReached: false, incremental: true };
}

/** Whether `next` lacks an edge key `prev` had. */
function lostEdge(prev: Fragment, next: Fragment): boolean {
  if (prev.edges.length === 0) return false;
  const keys = new Set<string>();
  for (const e of next.edges) keys.add(e.key);
  for (const e of prev.edges) if (!keys.has(e.key)) return true;
  return false;
}

/** Whether `e.node` is still the value at `e.path` in `root` (read as written, without following references). */
function stillAt(root: unknown, e: Edge): boolean {
  let node = root;
  for (const s of e.path) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<string | number, unknown>)[s];
  }
  return node === e.node;
}
