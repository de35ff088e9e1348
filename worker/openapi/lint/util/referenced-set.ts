/** @module For the unused-component rules: the `$ref`s of a document, normalised to compare with pointers. */

import { localRefPath, toPointer } from "./pointer";

const cache = new WeakMap<ReadonlySet<string>, Set<string>>();

/** Local `$ref`s as unescaped, percent-decoded pointers (`#/components/schemas/a%20b` → `#/components/schemas/a b`). */
export function referencedSet(refs: ReadonlySet<string>): Set<string> {
  let out = cache.get(refs);
  if (!out) {
    out = new Set();
    for (const ref of refs) {
      const path = localRefPath(ref);
      if (path) out.add(toPointer(path));
    }
    cache.set(refs, out);
  }
  return out;
}
