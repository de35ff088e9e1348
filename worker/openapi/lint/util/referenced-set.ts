/** @module For the unused-component rules: the `$ref`s of a document, normalised to compare with pointers. */

import { localRefPath, toPointer } from "./pointer";

const cache = new WeakMap<ReadonlySet<string>, Set<string>>();
/** `$ref` string → its normalised pointer (null: not local); a run's set of references is new every run, its strings mostly not. */
const normalised = new Map<string, string | null>();

/** Local `$ref`s as unescaped, percent-decoded pointers (`#/components/schemas/a%20b` → `#/components/schemas/a b`). */
export function referencedSet(refs: ReadonlySet<string>): Set<string> {
  let out = cache.get(refs);
  if (!out) {
    out = new Set();
    for (const ref of refs) {
      let pointer = normalised.get(ref);
      if (pointer === undefined) {
        const path = localRefPath(ref);
        pointer = path ? toPointer(path) : null;
        // Bounded: a long session with ever new references starts over rather than growing without end.
        if (normalised.size >= 20_000) normalised.clear();
        normalised.set(ref, pointer);
      }
      if (pointer !== null) out.add(pointer);
    }
    cache.set(refs, out);
  }
  return out;
}
