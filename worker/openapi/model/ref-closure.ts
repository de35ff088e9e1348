/**
 * @module Local `$ref` closure for operation slices: which targets an operation needs, transitively. Each target's
 * direct refs are computed once and memoised, so producing every slice of a large document walks each shared
 * schema once, not once per operation. Cycles end where a target is already collected.
 */

import { UNLIMITED, type WorkBudget } from "../work-budget";
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

  /** `budget` is spent by every walk and every ref collected (a dense graph costs operations × reachable refs). */
  constructor(
    private readonly document: unknown,
    readonly budget: WorkBudget = UNLIMITED,
  ) {}

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
    for (const ref of this.reachable(roots)) out[ref] = this.target(ref).value;
    return sortKeys(out);
  }

  /** The local refs reachable from `roots` whose targets exist, in discovery order. */
  reachable(roots: readonly unknown[]): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    const queue: string[] = [];
    const enqueue = (ref: string) => {
      if (!seen.has(ref) && ref.startsWith("#")) {
        seen.add(ref);
        queue.push(ref);
      }
    };
    for (const root of roots) walkRefs(root, enqueue, [], this.budget);
    while (queue.length) {
      const ref = queue.pop()!;
      this.budget.spend("collecting $ref targets");
      const t = this.target(ref);
      if (!t.found) continue;
      out.push(ref);
      if (!t.direct) {
        const direct = new Set<string>();
        walkRefs(
          t.value,
          (r) => {
            if (r.startsWith("#")) direct.add(r);
          },
          t.segments,
          this.budget,
        );
        t.direct = [...direct];
      }
      for (const r of t.direct) enqueue(r);
    }
    return out;
  }
}

function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key];
  return sorted;
}
