/**
 * @module How much the stored model of a definition would weigh, before any of it is written (issue 14). Each
 * operation's slice copies every `$ref` target it reaches, so a dense schema graph (500 schemas each referencing
 * 20 others, 2,000 operations: 0.7 MB of YAML) would make 2,000 slices of ~450 KB: 0.9 GB of KV writes. The
 * estimate sums, per operation, the operation's own JSON and the JSON of each target it reaches (each target
 * measured once), and stops as soon as the limit is passed.
 */

import type { RefClosure } from "./ref-closure";

/** Most characters all slices of one model may hold together: GitHub's REST description (1,223 operations) needs 13 M. */
export const MAX_MODEL_SLICE_CHARS = 64 * 1024 * 1024;

export interface SliceWeight {
  /** Estimated characters of every slice serialised (a lower bound once `over`). */
  chars: number;
  over: boolean;
  /** Slices measured before stopping. */
  measured: number;
  /** The most `$ref` targets one slice reaches (among those measured). */
  maxRefs: number;
}

/** Sums the estimated size of the slices rooted at `rootsOf` items, up to `limit` characters. */
export function weighSlices<T>(items: readonly T[], rootsOf: (item: T) => unknown[], closure: RefClosure, limit = MAX_MODEL_SLICE_CHARS): SliceWeight {
  const targetChars = new Map<string, number>();
  const weight: SliceWeight = { chars: 0, over: false, measured: 0, maxRefs: 0 };
  for (const item of items) {
    const roots = rootsOf(item);
    for (const root of roots) weight.chars += jsonLength(root);
    const refs = closure.reachable(roots);
    for (const ref of refs) {
      let n = targetChars.get(ref);
      if (n === undefined) {
        n = jsonLength(closure.target(ref).value) + ref.length + 4;
        targetChars.set(ref, n);
      }
      weight.chars += n;
    }
    weight.measured++;
    weight.maxRefs = Math.max(weight.maxRefs, refs.length);
    if (weight.chars > limit) {
      weight.over = true;
      break;
    }
  }
  return weight;
}

function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}
