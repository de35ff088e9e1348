/**
 * @module How much the stored model of a definition would weigh, before any of it is written (issue 14), as
 * store/models.ts stores it (issue 12): each slice's own JSON plus one entry number per `$ref` target it
 * reaches, and every distinct target once. A dense schema graph (500 schemas each referencing 20 others,
 * 2,000 operations) that weighed 0.9 GB as copies now weighs ~5 MB; what bounds such a graph now is what ONE
 * page must read and parse: the targets its slice reaches, capped by {@link MAX_SLICE_TARGET_CHARS}. The estimate
 * stops as soon as either limit is passed.
 */

import type { RefClosure } from "./ref-closure";

/**
 * Most characters one model may store (slices + target locations + targets once): about 512 KV values of 128 KB,
 * half of KV's 1,000 operations per invocation. Microsoft Graph v1.0 (11,422 operations) needs ~21 M, its beta (22,361) ~43 M.
 */
export const MAX_MODEL_SLICE_CHARS = 64 * 1024 * 1024;
/**
 * Most characters of `$ref` targets one operation may reach (what its page reads and parses). Microsoft Graph's
 * largest operation reaches 579 targets, ~0.7 M; a 128 MB isolate parses 4 M (~40 MB of objects) comfortably.
 */
export const MAX_SLICE_TARGET_CHARS = 4 * 1024 * 1024;
/** Estimated characters of one target reference in a stored slice (an entry number, `37,`, plus a share of its chunk's group). */
export const TARGET_LOCATION_CHARS = 4;

export interface SliceWeight {
  /** Estimated characters of the stored model (a lower bound once `over`). */
  chars: number;
  over: boolean;
  /** Which limit was passed: the whole model's, or one operation's reach. */
  overBy?: "model" | "slice";
  /** Slices measured before stopping. */
  measured: number;
  /** The most `$ref` targets one slice reaches (among those measured). */
  maxRefs: number;
  /** The most characters of targets one slice reaches (among those measured). */
  maxSliceTargetChars: number;
}

/**
 * Sums the estimated stored size of the slices rooted at `rootsOf` items, up to `limit` characters in all and
 * `sliceLimit` characters of targets per slice.
 */
export function weighSlices<T>(items: readonly T[], rootsOf: (item: T) => unknown[], closure: RefClosure, limit = MAX_MODEL_SLICE_CHARS, sliceLimit = MAX_SLICE_TARGET_CHARS): SliceWeight {
  const weighed = new Map<string, number>();
  const weight: SliceWeight = { chars: 0, over: false, measured: 0, maxRefs: 0, maxSliceTargetChars: 0 };
  for (const item of items) {
    const roots = rootsOf(item);
    for (const root of roots) weight.chars += jsonLength(root);
    const refs = closure.reachable(roots);
    let reach = 0;
    for (const ref of refs) {
      let n = weighed.get(ref);
      if (n === undefined) {
        n = targetChars(ref, closure.target(ref).value);
        weighed.set(ref, n);
        weight.chars += n;
      }
      reach += n;
    }
    weight.chars += refs.length * TARGET_LOCATION_CHARS;
    weight.measured++;
    weight.maxRefs = Math.max(weight.maxRefs, refs.length);
    weight.maxSliceTargetChars = Math.max(weight.maxSliceTargetChars, reach);
    if (reach > sliceLimit || weight.chars > limit) {
      weight.over = true;
      weight.overBy = reach > sliceLimit ? "slice" : "model";
      break;
    }
  }
  return weight;
}

/** What one `$ref` target weighs in a page's reach and in the stored model: its JSON, its ref and 4 characters of framing. */
export function targetChars(ref: string, value: unknown): number {
  return jsonLength(value) + ref.length + 4;
}

/**
 * Thrown by the streamed build's `slice` when one operation reaches more than {@link MAX_SLICE_TARGET_CHARS}
 * characters of `$ref` targets: the streamed build cannot weigh every slice first, so it stops at the first
 * such page; the publisher refuses it as it refuses a whole build whose weighing is over by "slice".
 */
export class SliceTooDense extends Error {
  constructor(
    readonly slug: string,
    /** Targets reached when the cap was passed (a lower bound of the operation's reach). */
    readonly refs: number,
    /** Characters of those targets. */
    readonly chars: number,
  ) {
    super(`operation ${slug} reaches more than ${MAX_SLICE_TARGET_CHARS} characters of $ref targets`);
    this.name = "SliceTooDense";
  }
}

function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}
