/**
 * @module Local `$ref` resolution with Spectral's resolved-document semantics: chains are followed to the first
 * non-reference, a pointer may pass through references, cycles and unresolvable references stay as written.
 * Targets are memoised per document version; callers may record what they resolved to revalidate caches.
 */

import { isObject, isRef, hasOwn } from "./is-object";
import { localRefPath } from "./pointer";
import type { JsonPath } from "../types";

/** What a cache entry depended on: `$ref` string → the node it reached (undefined when unresolvable). */
export type RefDeps = Map<string, unknown>;

interface Target {
  value: unknown;
  path: JsonPath;
  /** The pointer was followed without passing through another reference (`path` is the pointer's own path). */
  direct: boolean;
}

const MAX_HOPS = 64;
/** A carry dropping more targets than this lists none: revalidation then looks every reference up again. */
const MAX_DROPPED = 64;

export class RefResolver {
  private readonly targets = new Map<string, Target | null>();
  /** The resolver this one was carried from, and the references it held that this one did not carry over. */
  private parent: RefResolver | undefined;
  private dropped: Set<string> | undefined;

  constructor(readonly root: unknown) {}

  /**
   * A resolver for `root`, a new version of this one's document in which only the value at `changed` was
   * replaced (the containers on that path copied, everything else shared): targets found directly at paths that
   * neither contain nor lie inside `changed` are the same nodes, and are carried over instead of looked up again.
   */
  carry(root: unknown, changed: readonly (string | number)[]): RefResolver {
    const next = new RefResolver(root);
    let dropped: Set<string> | undefined = new Set();
    for (const [ref, t] of this.targets) {
      if (t && t.direct && !related(t.path, changed)) next.targets.set(ref, t);
      else if (dropped && dropped.add(ref).size > MAX_DROPPED) dropped = undefined;
    }
    // `this` is not used for lookups once carried (a session lints with the newest resolver only), so the list
    // stays complete: every reference `this` ever resolved is either carried or dropped.
    next.parent = this;
    next.dropped = dropped;
    return next;
  }

  /**
   * The references whose targets may have moved since `before`, when this resolver was carried from it (the
   * carry's dropped list); undefined when it was not, or when the carry dropped too many to list.
   */
  droppedSince(before: RefResolver): ReadonlySet<string> | undefined {
    return this.parent === before ? this.dropped : undefined;
  }

  /**
   * Whether every `$ref` in `deps` still reaches the node recorded for it. `checked`: a resolver under which
   * they all did (each was looked up through it). When that is the resolver this one was carried from, only
   * the references the carry dropped can have moved, so a cache entry is revalidated without looking up its
   * references (a keystroke on GitHub's description revalidates ~17,500 cached fragments); otherwise each is
   * looked up.
   */
  depsHold(deps: RefDeps, checked?: RefResolver): boolean {
    if (checked === this) return true;
    const dropped = this.dropped;
    if (checked && checked === this.parent && dropped) {
      let touched = false;
      if (dropped.size < deps.size) {
        for (const ref of dropped) if (deps.has(ref)) touched = true;
      } else for (const ref of deps.keys()) if (dropped.has(ref)) touched = true;
      if (!touched) return true;
    }
    for (const [ref, node] of deps) if (this.target(ref)?.value !== node) return false;
    return true;
  }

  /** The node a local `$ref` points at (one hop: the target may itself be a reference), or undefined. */
  target(ref: string): Target | undefined {
    let hit = this.targets.get(ref);
    if (hit === undefined) {
      hit = this.lookup(ref, 0) ?? null;
      this.targets.set(ref, hit);
    }
    return hit ?? undefined;
  }

  /** Follows `value` while it is a resolvable local reference; `path` is where `value` sits in the source. */
  resolveAt(value: unknown, path: readonly (string | number)[], deps?: RefDeps): { value: unknown; path: readonly (string | number)[] } {
    let current = value;
    let at = path;
    for (let hops = 0; hops < MAX_HOPS && isRef(current); hops++) {
      const ref = current.$ref;
      const t = this.target(ref);
      deps?.set(ref, t?.value);
      if (!t || t.value === current) break;
      current = t.value;
      at = t.path;
    }
    return { value: current, path: at };
  }

  resolve(value: unknown, deps?: RefDeps): unknown {
    return isRef(value) ? this.resolveAt(value, [], deps).value : value;
  }

  private lookup(ref: string, depth: number): Target | undefined {
    const segments = localRefPath(ref);
    if (!segments || depth > MAX_HOPS) return undefined;
    let node: unknown = this.root;
    let path: JsonPath = [];
    let direct = true;
    for (const segment of segments) {
      // A pointer may run through another reference (`#/components/schemas/A/properties/b` with A a $ref).
      for (let hops = 0; isRef(node) && hops < MAX_HOPS; hops++) {
        const t = this.lookup(node.$ref, depth + 1);
        if (!t) return undefined;
        node = t.value;
        path = t.path;
        direct = false;
      }
      if (Array.isArray(node)) {
        const i = /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : -1;
        if (i < 0 || i >= node.length) return undefined;
        node = node[i];
        path = [...path, i];
      } else if (isObject(node) && hasOwn(node, segment)) {
        node = node[segment];
        path = [...path, segment];
      } else return undefined;
    }
    return { value: node, path, direct };
  }
}

/** Whether one path is a prefix of the other (segments compared as strings: array indexes may be either). */
function related(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i] && String(a[i]) !== String(b[i])) return false;
  return true;
}
