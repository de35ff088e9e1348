/**
 * @module The serialised index (JSON): what build writes and load reads. Postings are precomputed BM25F
 * saturations so a query only sums numbers; vocabulary arrays are sorted for binary search and prefix ranges,
 * so loading is one JSON.parse with no per-term work.
 */
import type { SearchDocument } from "./types";

/** Bump when the shape or the meaning of a posting value changes; load refuses other formats. */
export const INDEX_FORMAT = "portico-search/2";

/** Saturations are stored as integers 1..SAT_SCALE (shifted left one bit, the low bit = "term is in the head": title or section). */
export const SAT_SCALE = 1000;

export interface IndexData {
  format: typeof INDEX_FORMAT;
  docs: SearchDocument[];
  /** Per document: distinct title terms, to prefer the tightest title among documents the query matches. */
  headLen: number[];
  /** Sorted, distinct terms (stems). */
  terms: string[];
  /** Per term: `[docDelta, value, docDelta, value, ...]`; value = saturation * 2 + inHead. */
  postings: number[][];
  /** Sorted, distinct surface words seen in the documents (for prefixes and typos) ... */
  words: string[];
  /** ... and the term each one maps to. */
  wordTerm: number[];
  /** Related terms mined from this index's own content: term → [term, weight%] pairs flattened. */
  related: Record<string, number[]>;
  /**
   * Per document, the id of its stored vector ("" when it has none); absent when the portal has no semantic
   * retrieval. The only way a vector match reaches a document (worker/search/semantic.ts).
   */
  vectors?: string[];
}

/** Binary search in a sorted string array; the index of `s` or -1. */
export function findSorted(list: readonly string[], s: string): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid];
    if (v === s) return mid;
    if (v < s) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** First index in a sorted array whose value is >= `s`. */
export function lowerBound(list: readonly string[], s: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
