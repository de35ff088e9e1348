/**
 * @module The serialised index (JSON): what build writes and load reads. Postings are precomputed BM25F
 * saturations so a query only sums numbers; vocabulary arrays are sorted for binary search and prefix ranges,
 * so loading is one JSON.parse with no per-term work.
 */
import type { SearchDocument } from "./types";

/**
 * Bump when the shape or the meaning of a posting value changes; load refuses other formats than this one and
 * {@link PREVIOUS_INDEX_FORMAT}. 3: a posting value has a title bit (`saturation * 4 + inTitle * 2 + inHead`).
 */
export const INDEX_FORMAT = "portico-search/3";
/**
 * The format before: `saturation * 2 + inHead`, no title bit. Still read (indexes stay live in KV until the
 * portal's next publish rebuilds them), ranked as before: a head match counts as a title match.
 */
export const PREVIOUS_INDEX_FORMAT = "portico-search/2";

/**
 * Saturations are stored as integers 1..SAT_SCALE, shifted left two bits: bit 0 = "term is in the head" (title or
 * section), bit 1 = "term is in the title itself" (format 3; format 2 is shifted one bit and has no title bit).
 */
export const SAT_SCALE = 1000;

export interface IndexData {
  format: typeof INDEX_FORMAT | typeof PREVIOUS_INDEX_FORMAT;
  docs: SearchDocument[];
  /** Per document: distinct title terms, to prefer the tightest title among documents the query matches. */
  headLen: number[];
  /** Sorted, distinct terms (stems). */
  terms: string[];
  /** Per term: `[docDelta, value, docDelta, value, ...]`; value = saturation * 4 + inTitle * 2 + inHead (format 2: saturation * 2 + inHead). */
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

/**
 * A loaded index as the engine reads it, however it was read (load.ts: JSON.parse of the text, or the light reader
 * of index-bytes.ts over the stored bytes). Same meaning as {@link IndexData}; postings and per-document numbers
 * may be typed arrays, and documents are a {@link DocTable} so they need not all exist as objects.
 */
export interface IndexView {
  docs: DocTable;
  headLen: ArrayLike<number>;
  terms: readonly string[];
  /** The term's `[docDelta, value, ...]` list (see {@link IndexData.postings}). */
  postings(term: number): ArrayLike<number>;
  /** Posting values carry the title bit (format 3); false for a format 2 index, whose values are saturation * 2 + inHead. */
  titleBit: boolean;
  words: readonly string[];
  wordTerm: ArrayLike<number>;
  related: Record<string, number[]>;
  vectors?: readonly string[];
  /**
   * Sorted word lists whose union is `words`, each with structures of its own built once (search shards: their
   * typo maps), so a merged view builds nothing over the whole vocabulary; absent = `words` alone.
   */
  wordParts?: readonly (readonly string[])[];
  /** The surface words of a term, sorted (`words` whose `wordTerm` is it); absent = read from `words` and `wordTerm`. */
  surface?(term: number): string[];
}

/** Who may read a document: its labels and policy path (see SearchDocument), shared by every document with both equal. */
export interface AccessGroup {
  labels: string[];
  policyPath?: string;
}

/**
 * The index's documents as columns: what every query reads of every document (kind, locale, access group) as
 * small numbers, and the whole document only for the results shown ({@link DocTable.get}).
 */
export interface DocTable {
  readonly length: number;
  kind(doc: number): string;
  locale(doc: number): string;
  /** Index of the document's {@link AccessGroup} in `groups`; groups are numbered in order of first document. */
  group(doc: number): number;
  readonly groups: readonly AccessGroup[];
  /** The whole document (parsed on each call by the light reader: callers take it once per result). */
  get(doc: number): SearchDocument;
}

/**
 * Builds a {@link DocTable}'s columns from documents given one at a time (each may be dropped once added), with
 * `get` answering the whole document later.
 */
export class DocColumns implements DocTable {
  private readonly kinds: string[] = [];
  private readonly kindIds = new Map<string, number>();
  private readonly kindOf: Uint8Array | Int32Array;
  private readonly locales: string[] = [];
  private readonly localeIds = new Map<string, number>();
  private readonly localeOf: Int32Array;
  readonly groups: AccessGroup[] = [];
  private readonly groupIds = new Map<string, number>();
  private readonly groupOf: Int32Array;

  constructor(readonly length: number, readonly get: (doc: number) => SearchDocument) {
    this.kindOf = new Int32Array(length);
    this.localeOf = new Int32Array(length);
    this.groupOf = new Int32Array(length);
  }

  /** Records document `i`'s kind, locale and access group. */
  add(i: number, d: SearchDocument): void {
    const labels = d.labels ?? [];
    this.setRow(i, String(d.kind), String(d.locale), this.groupId(labels, d.policyPath));
  }

  /**
   * The number of the access group of `labels` and `policyPath`, added on first sight. Keyed by both, as the
   * previous per-query memo was, so canRead sees the same pairs.
   */
  groupId(labels: string[], policyPath: string | undefined): number {
    const key = `${labels.join("\u0000")}\u0001${policyPath ?? ""}`;
    let g = this.groupIds.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.groupIds.set(key, g);
      this.groups.push(policyPath === undefined ? { labels } : { labels, policyPath });
    }
    return g;
  }

  /** Records document `i`'s kind, locale and access group number (from {@link groupId}). */
  setRow(i: number, kind: string, locale: string, group: number): void {
    this.kindOf[i] = intern(this.kinds, this.kindIds, kind);
    this.localeOf[i] = intern(this.locales, this.localeIds, locale);
    this.groupOf[i] = group;
  }

  kind(doc: number): string {
    return this.kinds[this.kindOf[doc]];
  }

  locale(doc: number): string {
    return this.locales[this.localeOf[doc]];
  }

  group(doc: number): number {
    return this.groupOf[doc];
  }
}

function intern(list: string[], ids: Map<string, number>, s: string): number {
  let id = ids.get(s);
  if (id === undefined) {
    id = list.length;
    ids.set(s, id);
    list.push(s);
  }
  return id;
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
