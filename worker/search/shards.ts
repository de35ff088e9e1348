/**
 * @module Search shards read and merged (issue 37). A portal's index is one shard per live source (shard-build.ts);
 * a reader's isolate loads each shard once (by content address) and merges the live ones with the portal's summed
 * statistics into one {@link IndexView}: documents in shard order, the union of terms and words, relations mined
 * from every shard's evidence, and each posting's BM25F saturation computed from its raw field frequencies with
 * the portal-wide average field lengths, exactly as one build over the same documents stores it. So ranks and
 * scores do not depend on how the documents were split (shards.test.ts checks it on random corpora).
 */
import { FIELDS, K1 } from "./build";
import { SAT_SCALE, findSorted, type IndexData, type IndexView } from "./format";
import { readIndexBytes } from "./index-bytes";
import { indexOfView, parsedView, LIGHT_READER_MIN_BYTES, SearchIndexFormatError } from "./load";
import { relatedOf, type MinedState } from "./mine";
import { MergedDocs } from "./shard-docs";
import { SHARD_FORMAT, type ShardStats } from "./shard-build";
import type { SearchIndex } from "./types";

/** One loaded shard: its documents, raw postings (`[docDelta, fieldMask, tf...]`) and additive evidence. */
export interface LoadedShard {
  view: IndexView;
  /** Per document, FIELDS.length field lengths in tokens. */
  lens: ArrayLike<number>;
  /** Indexes into `view.words` of the words public documents had. */
  publicWords: ArrayLike<number>;
  mined: MinedState;
  stats: ShardStats;
}

/**
 * Reads a shard's stored bytes (or text). From LIGHT_READER_MIN_BYTES up the light reader keeps documents as byte
 * ranges (index-bytes.ts); smaller shards go through one JSON.parse. Throws SearchIndexFormatError on another
 * format or garbage. `bytes` is kept by the shard: the caller must not change it.
 */
export function loadSearchShard(data: string | Uint8Array): LoadedShard {
  const size = typeof data === "string" ? data.length : data.byteLength;
  if (size >= LIGHT_READER_MIN_BYTES) {
    let read: ReturnType<typeof readIndexBytes> | undefined;
    try {
      read = readIndexBytes(typeof data === "string" ? new TextEncoder().encode(data) : data);
    } catch {
      // Not shaped as the builder writes: JSON.parse below reads it or says why not.
    }
    if (read) return shardOf(read.format, read.view, read.extra);
  }
  let parsed: IndexData & Record<string, unknown>;
  try {
    parsed = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)) as IndexData & Record<string, unknown>;
  } catch (e) {
    throw new SearchIndexFormatError("search shard is not valid JSON", { cause: e });
  }
  if (!parsed || !Array.isArray(parsed.docs)) throw new SearchIndexFormatError(`search shard format is not ${SHARD_FORMAT}`);
  return shardOf(parsed.format, parsedView(parsed), parsed);
}

function shardOf(format: unknown, view: IndexView, extra: Record<string, unknown>): LoadedShard {
  if (format !== SHARD_FORMAT) throw new SearchIndexFormatError(`search shard format is not ${SHARD_FORMAT}`);
  const { lens, publicWords, mined, stats } = extra as { lens?: ArrayLike<number>; publicWords?: ArrayLike<number>; mined?: MinedState; stats?: ShardStats };
  if (!lens || !publicWords || !mined || !stats || lens.length !== view.docs.length * FIELDS.length) throw new SearchIndexFormatError("search shard is incomplete");
  return { view, lens, publicWords, mined, stats };
}

/** Computed postings kept per merged index: terms queried again are not recomputed (bounded by count). */
const POSTINGS_CACHE_TERMS = 4096;

/**
 * The shards (in index order) as one searchable index, scored with `stats` (the portal's: the sum of the live
 * shards' statistics). Costs O(documents + vocabulary) once; postings are computed per term on first use.
 */
export function mergeShards(shards: readonly LoadedShard[], stats: ShardStats): SearchIndex {
  const avg = FIELDS.map((_, f) => Math.max(1, stats.lengths[f] / Math.max(1, stats.nonEmpty[f])));
  const docs = new MergedDocs(shards.map((s) => s.view.docs));
  const termSet = new Set<string>();
  for (const s of shards) for (const t of s.view.terms) termSet.add(t);
  // Distinct, so the default sort (UTF-16 code units, as `<` compares) gives the order a single build has.
  const terms = [...termSet].sort();
  const wordStem = new Map<string, string>();
  const publicVocabulary = new Map<string, string>();
  for (const s of shards) {
    const { words, wordTerm, terms: local } = s.view;
    for (let k = 0; k < words.length; k++) wordStem.set(words[k], local[wordTerm[k]]);
    for (let k = 0; k < s.publicWords.length; k++) {
      const w = words[s.publicWords[k]];
      publicVocabulary.set(w, local[wordTerm[s.publicWords[k]]]);
    }
  }
  const words = [...wordStem.keys()].sort();
  const wordTerm = Int32Array.from(words, (w) => findSorted(terms, wordStem.get(w)!));
  const termIndex = (t: string) => {
    const i = findSorted(terms, t);
    return i < 0 ? undefined : i;
  };
  const related = relatedOf(shards.map((s) => s.mined), termIndex, publicVocabulary);
  const headLen = new Int32Array(docs.length);
  shards.forEach((s, k) => headLen.set(Array.from(s.view.headLen), docs.offsets[k]));
  const anyVectors = shards.some((s) => s.view.vectors);
  const vectors = anyVectors ? shards.flatMap((s) => (s.view.vectors ? [...s.view.vectors] : Array.from({ length: s.view.docs.length }, () => ""))) : undefined;
  const cache = new Map<number, Int32Array>();
  const postings = (t: number): Int32Array => {
    let list = cache.get(t);
    if (list) return list;
    list = mergedPostings(shards, docs.offsets, terms[t], avg);
    if (cache.size >= POSTINGS_CACHE_TERMS) cache.delete(cache.keys().next().value as number);
    cache.set(t, list);
    return list;
  };
  const surfaces = new Map<number, string[]>();
  const surface = (t: number): string[] => {
    let list = surfaces.get(t);
    if (list) return list;
    list = mergedSurface(shards, terms[t]);
    if (surfaces.size >= POSTINGS_CACHE_TERMS) surfaces.delete(surfaces.keys().next().value as number);
    surfaces.set(t, list);
    return list;
  };
  const wordParts = shards.map((s) => s.view.words);
  const view: IndexView = { docs, headLen, terms, postings, titleBit: true, words, wordTerm, related, wordParts, surface, ...(vectors ? { vectors } : {}) };
  return indexOfView(view);
}

/** Per shard view, its terms' surface words (local term → its words, sorted): built once per shard and isolate. */
const SHARD_SURFACES = new WeakMap<IndexView, string[][]>();

/** The surface words of `term` over every shard, sorted and distinct (what one index's words give for it). */
function mergedSurface(shards: readonly LoadedShard[], term: string): string[] {
  const out = new Set<string>();
  for (const s of shards) {
    const local = findSorted(s.view.terms, term);
    if (local < 0) continue;
    let table = SHARD_SURFACES.get(s.view);
    if (!table) {
      table = [];
      const { words, wordTerm } = s.view;
      for (let k = 0; k < words.length; k++) (table[wordTerm[k]] ??= []).push(words[k]);
      SHARD_SURFACES.set(s.view, table);
    }
    for (const w of table[local] ?? []) out.add(w);
  }
  return [...out].sort();
}

/**
 * One term's `[docDelta, value]` list over every shard, value = saturation * 4 + inTitle * 2 + inHead as build.ts
 * stores it: BM25F's weighted frequency summed field by field in field order (the same floating-point steps), then
 * saturated and rounded.
 */
function mergedPostings(shards: readonly LoadedShard[], offsets: Int32Array, term: string, avg: number[]): Int32Array {
  const parts: number[] = [];
  let prev = 0;
  const fields = FIELDS.length;
  shards.forEach((s, k) => {
    const local = findSorted(s.view.terms, term);
    if (local < 0) return;
    const raw = s.view.postings(local);
    let doc = 0;
    for (let i = 0; i < raw.length; ) {
      doc += raw[i++];
      const mask = raw[i++];
      let w = 0;
      for (let f = 0; f < fields; f++) {
        if (!(mask & (1 << f))) continue;
        const norm = 1 - FIELDS[f].b + (FIELDS[f].b * s.lens[doc * fields + f]) / avg[f];
        w = w + (FIELDS[f].weight * raw[i++]) / norm;
      }
      const sat = Math.max(1, Math.round((SAT_SCALE * w) / (K1 + w)));
      const global = offsets[k] + doc;
      parts.push(global - prev, sat * 4 + (mask & 1 ? 2 : 0) + (mask & 3 ? 1 : 0));
      prev = global;
    }
  });
  return Int32Array.from(parts);
}
