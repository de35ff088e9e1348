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
import { LazyDocs, MergedDocs } from "./shard-docs";
import { publicVocabularyOf, shardVocabulary, type ShardVocabulary } from "./shard-vocabulary";
import { LAZY_SHARD_FORMAT, SHARD_FORMAT, type ShardStats } from "./shard-build";
import type { AccessGroup } from "./format";
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
  /** A lazy shard's (LAZY_SHARD_FORMAT) documents, stored apart and attached on demand: `view.docs` is this table. */
  lazyDocs?: LazyDocs;
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
  if (format !== SHARD_FORMAT && format !== LAZY_SHARD_FORMAT) throw new SearchIndexFormatError(`search shard format is not ${SHARD_FORMAT}`);
  const lazyDocs = format === LAZY_SHARD_FORMAT ? lazyDocsOf(extra) : undefined;
  if (lazyDocs) view.docs = lazyDocs;
  const { lens, publicWords, mined, stats } = extra as { lens?: ArrayLike<number>; publicWords?: ArrayLike<number>; mined?: MinedState; stats?: ShardStats };
  if (!lens || !publicWords || !mined || !stats || lens.length !== view.docs.length * FIELDS.length || view.headLen.length !== view.docs.length) throw new SearchIndexFormatError("search shard is incomplete");
  return { view, lens, publicWords, mined, stats, ...(lazyDocs ? { lazyDocs } : {}) };
}

function lazyDocsOf(extra: Record<string, unknown>): LazyDocs {
  const { docKinds, docLocales, docGroups, docRows, docStarts, docEnds, docsKey, docsParts } = extra as {
    docKinds?: unknown; docLocales?: unknown; docGroups?: unknown; docRows?: ArrayLike<number>; docStarts?: ArrayLike<number>; docEnds?: ArrayLike<number>; docsKey?: unknown; docsParts?: unknown;
  };
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === "string");
  const groups = (x: unknown): x is AccessGroup[] => Array.isArray(x) && x.every((g) => g && strings(g.labels) && (g.policyPath === undefined || typeof g.policyPath === "string"));
  if (!strings(docKinds) || !strings(docLocales) || !groups(docGroups) || !docRows || !docStarts || !docEnds || typeof docsKey !== "string" || typeof docsParts !== "number") {
    throw new SearchIndexFormatError("lazy search shard: its document columns are incomplete");
  }
  try {
    return new LazyDocs(docsKey, docsParts, docKinds, docLocales, docGroups, docRows, docStarts, docEnds);
  } catch (e) {
    throw new SearchIndexFormatError("lazy search shard: its document columns do not agree", { cause: e });
  }
}

/** The lazy document tables of each merged index's shards (none for an index of eager shards). */
const LAZY_TABLES = new WeakMap<SearchIndex, LazyDocs[]>();

/** How many times {@link withShardDocuments} runs a search at most (each run after the first attached documents). */
const DOCUMENT_ROUNDS = 32;

/**
 * Runs `run` (searches of `index`, synchronous) until no lazy shard's documents it read were missing: each run that
 * read a document whose shard's documents are not attached (a placeholder answered) is followed by `load` of those
 * documents and another run. Only the documents a search shows or ranks by title are read (a few shards' worth), so
 * a cold isolate's first query no longer parses every shard's documents. The last run read no placeholder, so its
 * answer is the one an index with every document loaded gives (shards.test.ts). An index without lazy shards runs once.
 * @throws Error when `load` finds a shard's documents missing, or the runs do not settle within DOCUMENT_ROUNDS.
 */
export async function withShardDocuments<T>(index: SearchIndex, run: () => T, load: (docs: LazyDocs) => Promise<Uint8Array | undefined>): Promise<T> {
  const tables = LAZY_TABLES.get(index);
  for (let round = 0; ; round++) {
    for (const t of tables ?? []) t.wanted = false;
    const out = run();
    const wanted = (tables ?? []).filter((t) => t.wanted && !t.attached);
    if (!wanted.length) return out;
    if (round + 1 >= DOCUMENT_ROUNDS) throw new Error(`search: documents still missing after ${DOCUMENT_ROUNDS} rounds`);
    await Promise.all(
      wanted.map(async (t) => {
        const bytes = await load(t);
        if (!bytes) throw new Error(`search: the documents of a live shard are missing (${t.key})`);
        if (!t.attached) t.attach(bytes);
      }),
    );
  }
}

/** Computed postings kept per merged index: terms queried again are not recomputed (bounded by count). */
const POSTINGS_CACHE_TERMS = 4096;

/**
 * The shards (in index order) as one searchable index, scored with `stats` (the portal's: the sum of the live
 * shards' statistics). Costs O(documents + vocabulary) once; postings are computed per term on first use.
 * `previous`: an earlier merge (of this portal, before a publish): its vocabulary is reused, so only the shards that
 * joined or left are walked for terms and words; the answers do not depend on it.
 */
export function mergeShards(shards: readonly LoadedShard[], stats: ShardStats, previous?: SearchIndex): SearchIndex {
  const avg = FIELDS.map((_, f) => Math.max(1, stats.lengths[f] / Math.max(1, stats.nonEmpty[f])));
  const docs = new MergedDocs(shards.map((s) => s.view.docs));
  // Derived from the previous merge's vocabulary when one is given: a publish replaced one shard, so the union
  // is one linear merge, not a hash and sort of the whole portal's vocabulary (shard-vocabulary.ts).
  const vocabulary = shardVocabulary(shards, previous ? VOCABULARIES.get(previous) : undefined);
  const { terms, words, wordTerm } = vocabulary;
  const termIndex = (t: string) => {
    const i = findSorted(terms, t);
    return i < 0 ? undefined : i;
  };
  const related = relatedOf(shards.map((s) => s.mined), termIndex, publicVocabularyOf(vocabulary));
  const headLen = new Int32Array(docs.length);
  shards.forEach((s, k) => headLen.set(Array.from(s.view.headLen), docs.offsets[k]));
  const anyVectors = shards.some((s) => s.view.vectors);
  const vectors = anyVectors ? shards.flatMap((s) => (s.view.vectors ? [...s.view.vectors] : Array.from({ length: s.view.docs.length }, () => ""))) : undefined;
  // Per shard, BM25F's length normalisation of each document's fields with the portal's averages (the same
  // floating-point expression build.ts evaluates), computed on the shard's first posting: 6 numbers a document.
  const normCache: Float64Array[] = [];
  const norms = (k: number): Float64Array => {
    let norm = normCache[k];
    if (norm) return norm;
    const lens = shards[k].lens;
    const fields = FIELDS.length;
    norm = new Float64Array(lens.length);
    for (let i = 0; i < lens.length; i++) {
      const f = i % fields;
      norm[i] = 1 - FIELDS[f].b + (FIELDS[f].b * lens[i]) / avg[f];
    }
    return (normCache[k] = norm);
  };
  const cache = new Map<number, Int32Array>();
  const postings = (t: number): Int32Array => {
    let list = cache.get(t);
    if (list) return list;
    list = mergedPostings(shards, docs.offsets, terms[t], norms);
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
  const index = indexOfView(view);
  VOCABULARIES.set(index, vocabulary);
  const lazy = shards.flatMap((s) => (s.lazyDocs ? [s.lazyDocs] : []));
  if (lazy.length) LAZY_TABLES.set(index, lazy);
  return index;
}

/** Each merged index's vocabulary, for the next merge of the same portal. */
const VOCABULARIES = new WeakMap<SearchIndex, ShardVocabulary>();

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
function mergedPostings(shards: readonly LoadedShard[], offsets: Int32Array, term: string, norms: (k: number) => Float64Array): Int32Array {
  const fields = FIELDS.length;
  const lists: Array<[number, ArrayLike<number>]> = [];
  let bound = 0;
  for (let k = 0; k < shards.length; k++) {
    const local = findSorted(shards[k].view.terms, term);
    if (local < 0) continue;
    const raw = shards[k].view.postings(local);
    lists.push([k, raw]);
    bound += raw.length;
  }
  // Each raw posting is 3+ numbers ([docDelta, mask, tf...]); each merged one is 2.
  const out = new Int32Array(bound);
  let at = 0;
  let prev = 0;
  for (const [k, raw] of lists) {
    const norm = norms(k);
    let doc = 0;
    for (let i = 0; i < raw.length; ) {
      doc += raw[i++];
      const mask = raw[i++];
      let w = 0;
      for (let f = 0; f < fields; f++) {
        if (!(mask & (1 << f))) continue;
        w = w + (FIELDS[f].weight * raw[i++]) / norm[doc * fields + f];
      }
      const sat = Math.max(1, Math.round((SAT_SCALE * w) / (K1 + w)));
      const global = offsets[k] + doc;
      out[at++] = global - prev;
      out[at++] = sat * 4 + (mask & 1 ? 2 : 0) + (mask & 3 ? 1 : 0);
      prev = global;
    }
  }
  return out.slice(0, at);
}
