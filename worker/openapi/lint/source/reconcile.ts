/**
 * @module Keeps the identity of what did not change between two parses of a document: every subtree of `next`
 * structurally equal to the same place in `previous` is replaced by the previous object. The lint caches key on
 * subtree identity, so after an edit only the edited path's objects are new. O(size of `next`).
 */

/** `next` with unchanged subtrees taken from `previous` (mutates `next`'s containers, never `previous`). */
export function reconcile<T>(previous: unknown, next: T): T {
  return merge(previous, next) as T;
}

function merge(previous: unknown, next: unknown): unknown {
  if (previous === next || next === null || typeof next !== "object") return next;
  if (previous === null || typeof previous !== "object" || Array.isArray(previous) !== Array.isArray(next)) return next;
  let same = true;
  if (Array.isArray(next)) {
    const old = previous as unknown[];
    if (old.length !== next.length) same = false;
    for (let i = 0; i < next.length; i++) {
      const r = merge(old[i], next[i]);
      if (r !== next[i]) next[i] = r;
      if (r !== old[i]) same = false;
    }
  } else {
    const old = previous as Record<string, unknown>;
    const obj = next as Record<string, unknown>;
    const oldKeys = Object.keys(old);
    const keys = Object.keys(obj);
    if (oldKeys.length !== keys.length) same = false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (same && oldKeys[i] !== k) same = false;
      const had = Object.prototype.hasOwnProperty.call(old, k);
      const r = had ? merge(old[k], obj[k]) : obj[k];
      // `__proto__` is an own data property in parsed JSON: plain assignment would set the prototype instead.
      if (r !== obj[k]) Object.defineProperty(obj, k, { value: r, writable: true, enumerable: true, configurable: true });
      if (!had || r !== old[k]) same = false;
    }
  }
  return same ? previous : next;
}
