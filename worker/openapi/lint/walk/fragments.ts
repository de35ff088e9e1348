/**
 * @module The node-rule walk. The document is cut into fragments: the root, each "unit" (a path item, a
 * webhook, a component, a 2.0 definition...) and each `$ref` target per walk context. A fragment is walked once
 * (all rules together), remembers its problems, the fragments it leads to and the `$ref`s its rules resolved;
 * it is reused while its subtree (by identity), its context and those `$ref` targets are unchanged. One run is
 * the union of the fragments reachable from the root: Spectral's resolved-document semantics (a schema reached
 * from `content` is linted as content) without re-walking shared components once per reference.
 */

import { LINT_BUDGET } from "../../budgets";
import { RELEVANT_KEYS } from "../rule";
import type { NodeContext, NodeVisitor, RawProblem, Segment } from "../rule";
import type { JsonPath, OasVersion } from "../types";
import { isObject, isRef } from "../util/is-object";
import { BudgetExceeded, UNLIMITED, type WorkBudget } from "../../work-budget";
import type { RefDeps, RefResolver } from "../util/resolver";
import { toPointer } from "../util/pointer";
import { childFlags, keyGivesFlags } from "./flags";

/** The fragment sees Spectral's resolved document (follows `$ref`s). */
export const MODE_RESOLVED = 1;
/** The fragment sees the source as written (`$ref` objects themselves). */
export const MODE_SOURCE = 2;
const MODE_BOTH = 3;

/** Logical context of a fragment's root. `keys`: classes of the last ancestor keys (see RELEVANT_KEYS). */
interface WalkCtx {
  flags: number;
  depth: number;
  keys: readonly Segment[];
}

interface Edge {
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
interface Member {
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
interface UnionState {
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

const unions = new WeakMap<FragmentCache, UnionState>();

/** The resolver under which `fragment`'s deps are known to hold. */
function checkedOf(fragment: Fragment): RefResolver | undefined {
  return fragment.union ? fragment.union.resolver : fragment.checked;
}

/**
 * Run numbers: a run marks the edges it followed and the fragments it took instead of keeping sets of them
 * (17,500 edges a keystroke on GitHub's description; the sets were a good part of the run's garbage).
 */
let runs = 0;

/** A node rule bound to its index in the engine's rule table. */
export interface BoundNodeRule {
  index: number;
  visitor: NodeVisitor;
  resolved: boolean;
  store: WeakMap<object, unknown>;
}

/** Fragments per subtree; a session keeps it across edits, a one-off lint starts empty. */
export type FragmentCache = WeakMap<object, Map<string, Fragment>>;

const KEPT_KEYS = 6;
/** Rules compare `depth` with numbers up to 7; deeper contexts are equivalent. */
const KEPT_DEPTH = 8;
const UNIT_PARENTS = new Set(["paths", "webhooks", "definitions", "parameters", "responses", "securityDefinitions"]);

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
  const run = ++runs;
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

/** Records the full pass's union (the fragments taken by `run`, in `queue`'s order) as the session's state. */
function keepUnion(queue: readonly Edge[], run: number, resolver: RefResolver, cache: FragmentCache): void {
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
function release(state: UnionState, current: RefResolver): void {
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
function updateUnion(root: Record<string, unknown>, walker: Walker, resolver: RefResolver, cache: FragmentCache, state: UnionState): WalkResult | undefined {
  const dropped = resolver.droppedSince(state.resolver);
  if (!dropped) return undefined;
  const before = state.resolver;
  const run = ++runs;
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

function edge(node: object, path: JsonPath, ctx: WalkCtx, mode: number): Edge {
  return { node, path, ctx, mode, key: edgeKey(toPointer(path), mode, ctxKey(ctx.flags, ctx.depth, ctx.keys)), run: 0 };
}

/** The cache key of a fragment: where it sits, how it is seen, and its context as far as rules can tell. */
function edgeKey(pointer: string, mode: number, ctx: string): string {
  return `${pointer}\u0000${mode}\u0000${ctx}`;
}

/** A context's part of a fragment key (depths past {@link KEPT_DEPTH} are equivalent). */
function ctxKey(flags: number, depth: number, keys: readonly Segment[]): string {
  return `${flags}\u0000${Math.min(depth, KEPT_DEPTH)}\u0000${keys.join("\u0001")}`;
}

/**
 * The fragment for `e` under `resolver`: the edge's own (from this cache) when its deps still hold; else the one
 * cached for its node and key, unless that is the edge's own or `stale` (both already found wanting) or its deps
 * fail; else a new walk, stored in `cache`. `walked`: whether it was walked now.
 */
function fragmentFor(e: Edge, walker: Walker, resolver: RefResolver, cache: FragmentCache, stale?: Fragment): { fragment: Fragment; walked: boolean } {
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

function keyClass(key: Segment): Segment {
  return typeof key === "string" && RELEVANT_KEYS.has(key) ? key : "*";
}

/** The step named when a lint runs out of work (work-budget.ts BudgetExceeded). */
export const LINT_STEP = "linting";

class Walker implements NodeContext {
  /** Rules called for every object, and rules by the keys that interest them. */
  private readonly always: BoundNodeRule[] = [];
  private readonly byKey = new Map<string, BoundNodeRule[]>();
  private readonly calledAt: Int32Array;
  private visitCount = 0;
  private fragment!: Fragment;
  private readonly srcPath: Segment[] = [];
  private readonly logKeys: Segment[] = [];
  private flags = 0;
  private natural = false;
  depth = 0;
  /**
   * Edges of this run, interned by key: a dense schema graph reaches the same target in the same
   * context from thousands of fragments, and one object per distinct edge keeps the run's memory linear in the
   * fragments walked (a fresh edge with its own path, context and key per reference took ~350 bytes each:
   * 1,000,000 of them on issue 14's dense graph, and seconds of garbage collection).
   */
  private readonly edges = new Map<object, Map<string, Edge>>();
  /** Distinct edges this run made (the walk's memory: fragments hold references to them). */
  edgesMade = 0;
  /** `$ref` target paths (memoised by the resolver, so stable) → their pointers. */
  private readonly pointers = new WeakMap<readonly Segment[], string>();

  constructor(
    readonly version: OasVersion,
    rules: readonly BoundNodeRule[],
    private readonly resolver: RefResolver,
    private readonly work: WorkBudget = UNLIMITED,
  ) {
    for (const rule of rules) {
      if (!rule.visitor.keys) this.always.push(rule);
      else for (const key of rule.visitor.keys) this.byKey.set(key, [...(this.byKey.get(key) ?? []), rule]);
    }
    this.calledAt = new Int32Array(rules.reduce((max, r) => Math.max(max, r.index + 1), 0)).fill(-1);
  }

  private call(rule: BoundNodeRule, node: Record<string, unknown>, mode: number): void {
    if (!(mode & (rule.resolved ? MODE_RESOLVED : MODE_SOURCE))) return;
    this.currentRule = rule.index;
    this.store = rule.store;
    try {
      rule.visitor.object(node, this);
    } catch (error) {
      // A rule that trips on an unforeseen shape must not take the lint down; it simply reports nothing here.
      // Running out of work is the run's to answer, not the rule's.
      if (error instanceof BudgetExceeded) throw error;
    }
  }

  walk(edge: Edge): Fragment {
    this.fragment = { problems: [], edges: [], refs: [], deps: null, run: 0 };
    this.srcPath.length = 0;
    this.srcPath.push(...edge.path);
    this.logKeys.length = 0;
    this.logKeys.push(...edge.ctx.keys);
    this.natural = edge.mode === MODE_BOTH;
    this.visit(edge.node, edge.ctx.flags, edge.ctx.depth, edge.mode);
    return this.fragment;
  }

  // NodeContext, as seen by the rule being called.
  get root(): Record<string, unknown> {
    return this.resolver.root as Record<string, unknown>;
  }
  get path(): readonly Segment[] {
    return this.srcPath;
  }
  keyAt(up: number): Segment | undefined {
    return this.logKeys[this.logKeys.length - 1 - up];
  }
  has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }
  resolve(value: unknown): unknown {
    return this.resolver.resolve(value, this.deps());
  }
  resolveAt(value: unknown, path: readonly Segment[]): { value: unknown; path: readonly Segment[] } {
    return this.resolver.resolveAt(value, path, this.deps());
  }
  report(message: string, at?: readonly Segment[]): void {
    this.fragment.problems.push({ rule: this.currentRule, message, path: at ? [...this.srcPath, ...at] : [...this.srcPath] });
  }
  reportAt(message: string, path: readonly Segment[]): void {
    this.fragment.problems.push({ rule: this.currentRule, message, path: [...path] });
  }
  spend(units: number): void {
    this.work.spend(LINT_STEP, units);
  }

  private currentRule = -1;
  store: WeakMap<object, unknown> = new WeakMap();

  private deps(): RefDeps {
    return (this.fragment.deps ??= new Map());
  }

  private visit(node: unknown, flags: number, depth: number, mode: number): void {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) this.descend(node[i], i, flags, depth, mode);
      return;
    }
    if (!isObject(node)) return;
    this.work.spend(LINT_STEP);
    this.flags = flags;
    this.depth = depth;
    const keys = Object.keys(node);
    for (const rule of this.always) this.call(rule, node, mode);
    if (this.byKey.size) {
      const visit = ++this.visitCount;
      for (const key of keys) {
        const interested = this.byKey.get(key);
        if (!interested) continue;
        for (const rule of interested) {
          if (this.calledAt[rule.index] === visit) continue;
          this.calledAt[rule.index] = visit;
          this.call(rule, node, mode);
        }
      }
    }
    if (mode & MODE_SOURCE && this.natural && typeof node.$ref === "string") this.fragment.refs.push(node.$ref);
    for (const key of keys) this.descend(node[key], key, flags, depth, mode);
  }

  private descend(child: unknown, key: Segment, parentFlags: number, parentDepth: number, mode: number): void {
    if (child === null || typeof child !== "object") return;
    const depth = parentDepth + 1;
    const flags = childFlags(parentFlags, this.logKeys[this.logKeys.length - 1], key, depth);
    this.srcPath.push(key);
    this.logKeys.push(key);
    try {
      if (this.natural && mode === MODE_BOTH && isUnitPath(this.srcPath)) {
        this.fragment.edges.push(this.unitEdge(child, flags, depth));
        return;
      }
      if (mode & MODE_RESOLVED && isRef(child)) {
        const target = this.resolver.resolveAt(child, this.srcPath, this.deps());
        if (target.value !== child && target.value !== null && typeof target.value === "object") {
          this.fragment.edges.push(this.edge(target.value, target.path, flags, depth, MODE_RESOLVED));
          if (mode & MODE_SOURCE) this.visit(child, flags, depth, MODE_SOURCE);
          return;
        }
      }
      this.visit(child, flags, depth, mode);
    } finally {
      this.srcPath.pop();
      this.logKeys.pop();
    }
  }

  /**
   * The edge to a unit (a path item, a component...) at the current path: the one made for the same node at the
   * same path and context by an earlier run when there is one (a keystroke re-walks the root fragment, which
   * leads to every unit: ~3,000 edges on GitHub's description, whose keys would be rebuilt for nothing).
   */
  private unitEdge(node: object, flags: number, depth: number): Edge {
    const kept = unitEdges.get(node);
    // Not interned in the run's edge table: a unit is reached once a run (from the root fragment), and no other
    // edge has its key (theirs are MODE_RESOLVED).
    if (kept && kept.ctx.flags === flags && kept.ctx.depth === depth && samePath(kept.path, this.srcPath) && this.sameKeys(kept.ctx.keys)) {
      this.edgesMade++;
      return kept;
    }
    const made = this.edge(node, [...this.srcPath], flags, depth, MODE_BOTH);
    unitEdges.set(node, made);
    return made;
  }

  /** Whether `keys` are the classes of the last {@link KEPT_KEYS} logical keys (as {@link edge} records them). */
  private sameKeys(keys: readonly Segment[]): boolean {
    const n = this.logKeys.length;
    const start = Math.max(0, n - KEPT_KEYS);
    if (keys.length !== n - start) return false;
    for (let i = start; i < n; i++) if (keyClass(this.logKeys[i]) !== keys[i - start]) return false;
    return true;
  }

  /**
   * The run's edge to `node` (at `path`, never mutated: a resolver's memoised target path is shared) in the
   * current context. An edge already made with the same key is returned as is: its context (the first one seen,
   * whose depth may differ past KEPT_DEPTH) is the one the fragment cache would have used anyway.
   */
  private edge(node: object, path: readonly Segment[], flags: number, depth: number, mode: number): Edge {
    const n = this.logKeys.length;
    let classes = "";
    for (let i = Math.max(0, n - KEPT_KEYS); i < n; i++) classes += (i > Math.max(0, n - KEPT_KEYS) ? "\u0001" : "") + keyClass(this.logKeys[i]);
    const ck = `${flags}\u0000${Math.min(depth, KEPT_DEPTH)}\u0000${classes}`; // = ctxKey(flags, depth, keys)
    let pointer = this.pointers.get(path);
    if (pointer === undefined) this.pointers.set(path, (pointer = toPointer(path)));
    const key = edgeKey(pointer, mode, ck);
    let byKey = this.edges.get(node);
    const known = byKey?.get(key);
    if (known) return known;
    const keys: Segment[] = [];
    for (let i = Math.max(0, n - KEPT_KEYS); i < n; i++) keys.push(keyClass(this.logKeys[i]));
    const made: Edge = { node, path: path as JsonPath, ctx: { flags, depth, keys }, mode, key, run: 0 };
    if (!byKey) this.edges.set(node, (byKey = new Map()));
    byKey.set(key, made);
    this.edgesMade++;
    return made;
  }
}

/** Unit edges by the unit's node, kept across runs (checked against path and context before reuse). */
const unitEdges = new WeakMap<object, Edge>();

function samePath(a: readonly Segment[], b: readonly Segment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether the node at `path` starts a unit: the maps below, and the members of the maps above, of each `components` map, and of a
 * root-level extension (GitHub's 3.0 description keeps its 300 webhooks in `x-webhooks`, 545 examples that the
 * root fragment, re-walked on every edit, would otherwise validate each time). Cutting a unit out changes no
 * result: its edge carries the walk context the root fragment would have had there.
 */
function isUnitPath(path: readonly Segment[]): boolean {
  const top = path[0];
  if (typeof top !== "string") return false;
  const parent = UNIT_PARENTS.has(top) || top.startsWith("x-");
  if (path.length === 2 && parent) return true;
  if (path.length === 3) return top === "components";
  // The maps holding units are fragments of their own too (`paths`, `components` and each of its maps): an
  // edit re-walks the root and the maps on its path, not the thousands of unit edges of the maps beside it.
  // Not a map whose name gives its members flags and is not kept in a fragment's context (`responses`,
  // `definitions`: see keyClass): its members' flags are computed inside its fragment from its key.
  const key = path[path.length - 1];
  if (typeof key !== "string" || (keyGivesFlags(key) && keyClass(key) !== key)) return false;
  if (path.length === 1) return parent || top === "components";
  return path.length === 2 && top === "components";
}
