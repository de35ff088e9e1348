/**
 * @module The walk of one fragment (walk/fragments.ts explains the walk): every object of the subtree is visited
 * once, the node rules interested in it run, and `$ref`s and unit boundaries become edges to other fragments.
 */

import { BudgetExceeded, UNLIMITED, type WorkBudget } from "../../work-budget";
import type { NodeContext, Segment } from "../rule";
import type { JsonPath, OasVersion } from "../types";
import { isObject, isRef } from "../util/is-object";
import type { RefDeps, RefResolver } from "../util/resolver";
import { toPointer } from "../util/pointer";
import { childFlags, keyGivesFlags } from "./flags";
import { edgeKey, keyClass, KEPT_DEPTH, KEPT_KEYS, MODE_BOTH, MODE_RESOLVED, MODE_SOURCE, type BoundNodeRule, type Edge, type Fragment, type FragmentWalker } from "./fragment";

const UNIT_PARENTS = new Set(["paths", "webhooks", "definitions", "parameters", "responses", "securityDefinitions"]);

/** The step named when a lint runs out of work (work-budget.ts BudgetExceeded). */
export const LINT_STEP = "linting";
/** Walks fragments for one run: rules by the keys that interest them, edges interned for the run. */
export class Walker implements NodeContext, FragmentWalker {
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
