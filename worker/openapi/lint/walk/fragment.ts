/**
 * @module The node-rule walk's fragments (walk/fragments.ts explains the walk): what a fragment is and how it is
 * keyed (node, pointer, mode, walk context), the edges that lead to fragments, and the fragment cache's lookup
 * that reuses a fragment while its `$ref` dependencies hold.
 */

import { RELEVANT_KEYS } from "../rule";
import type { NodeVisitor, RawProblem, Segment } from "../rule";
import type { JsonPath } from "../types";
import type { RefDeps, RefResolver } from "../util/resolver";
import { toPointer } from "../util/pointer";

/** The fragment sees Spectral's resolved document (follows `$ref`s). */
export const MODE_RESOLVED = 1;
/** The fragment sees the source as written (`$ref` objects themselves). */
export const MODE_SOURCE = 2;
/** Both: a natural fragment (the root, a unit), seen as written and resolved. */
export const MODE_BOTH = 3;

/** Logical context of a fragment's root. `keys`: classes of the last ancestor keys (see RELEVANT_KEYS). */
export interface WalkCtx {
  flags: number;
  depth: number;
  keys: readonly Segment[];
}

/** A way to a fragment: its node, where it sits, its context and mode, and the fragment it led to last. */
export interface Edge {
  node: object;
  path: JsonPath;
  ctx: WalkCtx;
  mode: number;
  /** Cache key of the fragment the edge leads to (computed once, when the edge is recorded). */
  key: string;
  /** The last run that followed this edge (edges outlive runs inside cached fragments). */
  run: number;
  /**
   * The fragment this edge led to last, in which cache (a session's, for its rule plan): a fragment is a function
   * of node, key and deps, so it stands in that cache while its deps hold.
   */
  fragment?: Fragment;
  fragmentIn?: FragmentCache;
}

/** One walked subtree: its problems, the edges it leads to, the `$ref`s its source writes and its rules resolved. */
export interface Fragment {
  problems: RawProblem[];
  edges: Edge[];
  /** Local `$ref` strings written in this fragment's source (natural fragments only). */
  refs: string[];
  deps: RefDeps | null;
  /** The last resolver under which `deps` were found to hold (RefResolver.depsHold). */
  checked?: RefResolver;
  /** The last run whose union took this fragment's findings. */
  run: number;
  /**
   * The session's union this fragment is a member of (then its deps hold under `union.resolver`, which stands
   * for `checked`: an incremental run moves the union to a new resolver without touching its members).
   */
  union?: UnionState;
}

/** One fragment of a session's last union, with the edge that reached it. */
export interface Member {
  edge: Edge;
  fragment: Fragment;
}

/**
 * A session's last union (issue 12: per keystroke, nothing iterates all ~17,500 edges of GitHub's description).
 * Invariant: every member's deps hold under `resolver`, its key (pointer, mode, context) is reached from the
 * root, and the run's problems and references are the members'. An incremental run starts from the root and
 * from the members depending on a reference the resolver's carry dropped (`index`), re-walks what changed, and
 * keeps the rest; a re-walked fragment that loses an edge could leave members unreachable, so it gives up and
 * the full pass runs.
 */
export interface UnionState {
  resolver: RefResolver;
  members: Map<string, Member>;
  /** Members with problems, by key (insertion order; the run's problems are sorted later). */
  withProblems: Map<string, Fragment>;
  /** How many members' sources write each `$ref` string, and the set of those counted at least once. */
  refCounts: Map<string, number>;
  refs: Set<string>;
  /** `$ref` string → keys of the members whose deps hold it. */
  index: Map<string, Set<string>>;
  /** 1 + the members' edges: the full pass's queue length, compared with the budget. */
  edgeTotal: number;
}

/** The resolver under which `fragment`'s deps are known to hold. */
export function checkedOf(fragment: Fragment): RefResolver | undefined {
  return fragment.union ? fragment.union.resolver : fragment.checked;
}

/**
 * Run numbers: a run marks the edges it followed and the fragments it took instead of keeping sets of them
 * (17,500 edges a keystroke on GitHub's description; the sets were a good part of the run's garbage).
 */
let runs = 0;

/** A new run number. */
export function nextRun(): number {
  return ++runs;
}

/** A node rule bound to its index in the engine's rule table. */
export interface BoundNodeRule {
  index: number;
  visitor: NodeVisitor;
  resolved: boolean;
  store: WeakMap<object, unknown>;
}

/** Fragments per subtree; a session keeps it across edits, a one-off lint starts empty. */
export type FragmentCache = WeakMap<object, Map<string, Fragment>>;

/** Ancestor key classes kept in a walk context. */
export const KEPT_KEYS = 6;
/** Rules compare `depth` with numbers up to 7; deeper contexts are equivalent. */
export const KEPT_DEPTH = 8;

/** What a node-rule walk found: problems, `$ref` strings written, and counts for the benchmarks. */
export interface WalkResult {
  problems: RawProblem[];
  /** Not to be mutated: a session hands the same set to runs whose references did not change. */
  refs: ReadonlySet<string>;
  walked: number;
  reused: number;
  edgesMade: number;
  budgetReached: boolean;
  /** The run updated the session's last union instead of taking every reachable fragment again. */
  incremental?: boolean;
}

/** An edge to `node` at `path`, keyed. */
export function edge(node: object, path: JsonPath, ctx: WalkCtx, mode: number): Edge {
  return { node, path, ctx, mode, key: edgeKey(toPointer(path), mode, ctxKey(ctx.flags, ctx.depth, ctx.keys)), run: 0 };
}

/** The cache key of a fragment: where it sits, how it is seen, and its context as far as rules can tell. */
export function edgeKey(pointer: string, mode: number, ctx: string): string {
  return `${pointer}\u0000${mode}\u0000${ctx}`;
}

/** A context's part of a fragment key (depths past {@link KEPT_DEPTH} are equivalent). */
function ctxKey(flags: number, depth: number, keys: readonly Segment[]): string {
  return `${flags}\u0000${Math.min(depth, KEPT_DEPTH)}\u0000${keys.join("\u0001")}`;
}

/** What walks a fragment for an edge (walk/walker.ts). */
export interface FragmentWalker {
  walk(edge: Edge): Fragment;
}

/**
 * The fragment for `e` under `resolver`: the edge's own (from this cache) when its deps still hold; else the one
 * cached for its node and key, unless that is the edge's own or `stale` (both already found wanting) or its deps
 * fail; else a new walk, stored in `cache`. `walked`: whether it was walked now.
 */
export function fragmentFor(e: Edge, walker: FragmentWalker, resolver: RefResolver, cache: FragmentCache, stale?: Fragment): { fragment: Fragment; walked: boolean } {
  const own = e.fragmentIn === cache ? e.fragment : undefined;
  if (own && depsHold(own, resolver)) return { fragment: own, walked: false };
  // Another edge to the same node and key may have stored a fresher fragment since.
  let byKey = cache.get(e.node);
  const stored = byKey?.get(e.key);
  if (stored && stored !== e.fragment && stored !== stale && depsHold(stored, resolver)) return { fragment: stored, walked: false };
  const fragment = walker.walk(e);
  // Its references were resolved through `resolver`: they hold under it.
  fragment.checked = resolver;
  if (!byKey) cache.set(e.node, (byKey = new Map()));
  byKey.set(e.key, fragment);
  return { fragment, walked: true };
}

function depsHold(fragment: Fragment, resolver: RefResolver): boolean {
  if (!fragment.deps) return true;
  if (!resolver.depsHold(fragment.deps, checkedOf(fragment))) return false;
  fragment.checked = resolver;
  return true;
}

/** The class of an ancestor key as walk contexts keep it: a key some rule looks at, else `*`. */
export function keyClass(key: Segment): Segment {
  return typeof key === "string" && RELEVANT_KEYS.has(key) ? key : "*";
}
