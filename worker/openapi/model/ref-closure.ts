/**
 * @module Local `$ref` closure for operation slices: which targets an operation needs, transitively. Each target's
 * direct refs are computed once and memoised, so producing every slice of a large document walks each shared
 * schema once, not once per operation. Cycles end where a target is already collected.
 */

import { parseRef, resolvePointer } from "./pointer";
import { walkRefs } from "./walk-refs";

interface Target {
  found: boolean;
  value: unknown;
  /** Where the target is, so members are judged in context (a `value` under `examples` is data). */
  segments?: string[];
  /** Local refs directly inside `value`, as written. */
  direct?: string[];
}

/** Memoised resolution and closure over one document's local `$ref`s. */
export class RefClosure {
  private readonly targets = new Map<string, Target>();

  constructor(private readonly document: unknown) {}

  /** Resolves a local ref (as written); non-local or malformed refs are reported as not found. */
  target(ref: string): Target {
    let t = this.targets.get(ref);
    if (!t) {
      const parsed = parseRef(ref);
      t = parsed.kind === "local" ? { ...resolvePointer(this.document, parsed.segments), segments: parsed.segments } : { found: false, value: undefined };
      this.targets.set(ref, t);
    }
    return t;
  }

  /** Every local ref reachable from `roots`, keyed as written, mapped to its target (missing targets omitted). */
  collect(roots: readonly unknown[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    const queue: string[] = [];
    const enqueue = (ref: string) => {
      if (!seen.has(ref) && ref.startsWith("#")) {
        seen.add(ref);
        queue.push(ref);
      }
    };
    for (const root of roots) walkRefs(root, enqueue);
    while (queue.length) {
      const ref = queue.pop()!;
      const t = this.target(ref);
      if (!t.found) continue;
      out[ref] = t.value;
      if (!t.direct) {
        const direct = new Set<string>();
        walkRefs(
          t.value,
          (r) => {
            if (r.startsWith("#")) direct.add(r);
          },
          t.segments,
        );
        t.direct = [...direct];
      }
      for (const r of t.direct) enqueue(r);
    }
    return sortKeys(out);
  }
}

function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key];
  return sorted;
}
