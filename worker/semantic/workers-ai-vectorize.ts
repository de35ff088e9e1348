/**
 * @module The production {@link SemanticRetriever}: embeddings from Workers AI (`@cf/baai/bge-m3`) stored in and
 * queried from a Vectorize index. The bindings are passed in (structural types below), so tests run this very code
 * against a fake model and an in-memory Vectorize (worker/semantic/testing/fakes.ts).
 *
 * Why bge-m3: a portal searches every locale together and readers query in their own language, so the model must
 * be multilingual and place a French question near an English section (bge-base-en-v1.5 is English only); it needs
 * no query instruction prefix, takes long inputs (the catalogue gives a 60,000-token context; we send ~2,000
 * characters), and its 1,024 dimensions fit Vectorize's 1,536. Batches of at most 100 texts (the model's schema).
 *
 * Vectorize facts relied on (developers.cloudflare.com/vectorize, platform/limits and reference/metadata-filtering):
 * ids at most 64 bytes; upsert at most 1,000 vectors per call from a Worker; topK at most 100 without values or
 * metadata; a namespace per vector (at most 50,000 per index on Workers Paid), applied before metadata filters;
 * filters on metadata need a metadata index created before the vectors are written; filters are an implicit AND of
 * keys with `$eq $ne $in $nin $lt $lte $gt $gte`, no `$or`, no array membership, compact JSON under 2,048 bytes;
 * string metadata is filterable on its first 64 bytes; mutations are applied asynchronously (seconds).
 */
import { withinMs } from "../lib/time-limit";
import type { SemanticItem, SemanticRetriever, SemanticScope, StoreOutcome } from "../search/semantic";

/** The embedding model and its vector size (create the Vectorize index with these dimensions, metric cosine). */
export const EMBEDDING_MODEL = "@cf/baai/bge-m3";
export const EMBEDDING_DIMENSIONS = 1024;
/** Texts per embedding call (bge-m3's `maxItems`); each batch is then one upsert (Vectorize takes up to 1,000). */
export const EMBED_BATCH = 100;
/** Embedding batches in flight at once during a publish. */
const EMBED_CONCURRENCY = 2;
/**
 * Least cosine similarity a match needs to join the results. Vectorize answers the topK nearest vectors however far
 * they are, so without a floor every query would gain up to topK unrelated results (and totals with them). 0.5 is
 * a starting point for bge-m3, not a measured one (no model here): calibrate it with `SEMANTIC_MIN_SCORE`.
 */
export const DEFAULT_MIN_SCORE = 0.5;
/** Longest query text embedded (characters); the route already refuses queries over 500. */
const MAX_QUERY_CHARS = 500;
/** Vectorize's limit on a filter's compact JSON. */
const MAX_FILTER_BYTES = 2048;
/** Query embeddings kept per isolate, and for how long: the search box asks the same words again as readers type. */
const QUERY_CACHE_SIZE = 256;
const QUERY_CACHE_MS = 10 * 60 * 1000;

/** What this adapter needs of the `AI` binding (its `run`). */
export interface EmbeddingModel {
  run(model: string, input: { text: string[]; truncate_inputs?: boolean }): Promise<unknown>;
}

/** A vector as Vectorize takes it. */
export interface StoredVector {
  id: string;
  values: number[];
  namespace?: string;
  metadata?: Record<string, string | number | boolean>;
}

/** What this adapter needs of a Vectorize binding (V2 `Vectorize` and the typed `VectorizeIndex` both fit). */
export interface VectorStore {
  upsert(vectors: StoredVector[]): Promise<unknown>;
  deleteByIds(ids: string[]): Promise<unknown>;
  query(vector: number[], options: { topK?: number; namespace?: string; returnValues?: boolean; returnMetadata?: boolean | "all" | "indexed" | "none"; filter?: Record<string, unknown> }): Promise<{ matches: { id: string; score: number }[] }>;
}

/** The Vectorize namespace of a portal's vectors: tenants never share a search space. */
export function namespaceOf(portalId: number): string {
  return `portal-${portalId}`;
}

/**
 * The Vectorize filter for a reader's scope: `access $in […]` and, when the request named a locale, `locale $in […]`.
 * Clauses that would push the filter past 2,048 bytes are dropped (access first, then locale): the filter narrows
 * what fills `topK`, but the engine's own check of every mapped document is what keeps results to the reader's.
 */
export function filterFor(scope: SemanticScope): Record<string, unknown> | undefined {
  const filter: Record<string, unknown> = {};
  if (scope.locales?.length) filter.locale = { $in: scope.locales };
  filter.access = { $in: scope.access };
  const size = () => new TextEncoder().encode(JSON.stringify(filter)).length;
  if (size() >= MAX_FILTER_BYTES) delete filter.access;
  if (size() >= MAX_FILTER_BYTES) delete filter.locale;
  return Object.keys(filter).length ? filter : undefined;
}

/** Thrown when the model answers something other than one vector of the expected size per text. */
export class EmbeddingError extends Error {}

const queryCache = new Map<string, { at: number; vector: number[] }>();

/** Options of {@link workersAiVectorize}; defaults are the production model. */
export interface WorkersAiVectorizeOptions {
  model?: string;
  dimensions?: number;
  /** Least cosine similarity of a match (default {@link DEFAULT_MIN_SCORE}). */
  minScore?: number;
  /** Clock for the query cache (tests). */
  now?: () => number;
}

/** The Workers AI + Vectorize adapter over the given bindings. */
export function workersAiVectorize(ai: EmbeddingModel, vectorize: VectorStore, options: WorkersAiVectorizeOptions = {}): SemanticRetriever {
  const model = options.model ?? EMBEDDING_MODEL;
  const dimensions = options.dimensions ?? EMBEDDING_DIMENSIONS;
  const now = options.now ?? Date.now;
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;

  async function embed(texts: string[]): Promise<number[][]> {
    const answer = await ai.run(model, { text: texts, truncate_inputs: true });
    const data = answer && typeof answer === "object" && "data" in answer ? (answer as { data: unknown }).data : undefined;
    if (!Array.isArray(data) || data.length !== texts.length) throw new EmbeddingError(`${model} answered ${Array.isArray(data) ? data.length : "no"} vectors for ${texts.length} texts`);
    for (const v of data) {
      if (!Array.isArray(v) || v.length !== dimensions || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
        throw new EmbeddingError(`${model} answered a vector that is not ${dimensions} finite numbers`);
      }
    }
    return data as number[][];
  }

  return {
    model,

    async store(portalId: number, items: SemanticItem[], until: number): Promise<StoreOutcome> {
      const stored: string[] = [];
      const batches: SemanticItem[][] = [];
      for (let i = 0; i < items.length; i += EMBED_BATCH) batches.push(items.slice(i, i + EMBED_BATCH));
      let next = 0;
      let error: unknown;
      let skipped = 0;
      const worker = async () => {
        while (next < batches.length && error === undefined) {
          const batch = batches[next++];
          // Out of time: the rest stays lexical-only until a later publish embeds it.
          if (now() >= until) {
            skipped += batch.length;
            continue;
          }
          try {
            // A call that hangs must not hold the publish past `until` (its deadline would refuse the publish).
            await withinMs(until - now(), (async () => {
              const values = await embed(batch.map((b) => b.text));
              await vectorize.upsert(batch.map((b, i) => ({ id: b.id, values: values[i], namespace: namespaceOf(portalId), metadata: { ...b.metadata } })));
            })());
            stored.push(...batch.map((b) => b.id));
          } catch (e) {
            // One failed batch stops the rest: a model or index that is down would fail them all, slowly.
            error ??= e;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(EMBED_CONCURRENCY, batches.length) }, worker));
      if (error !== undefined) skipped = items.length - stored.length;
      return { stored, skipped, ...(error !== undefined ? { error } : {}) };
    },

    async remove(portalId: number, ids: string[]): Promise<void> {
      // Vector ids are unique across the index (they hash the portal id), so deleting by id stays in the portal.
      void portalId;
      for (let i = 0; i < ids.length; i += 1000) await vectorize.deleteByIds(ids.slice(i, i + 1000));
    },

    async query(portalId: number, text: string, scope: SemanticScope, topK: number): Promise<string[]> {
      const q = text.normalize("NFC").trim().replace(/\s+/g, " ").slice(0, MAX_QUERY_CHARS);
      if (!q || !scope.access.length) return [];
      const key = `${model}\u0000${q}`;
      let hit = queryCache.get(key);
      if (hit && now() - hit.at > QUERY_CACHE_MS) hit = undefined;
      let vector = hit?.vector;
      if (!vector) {
        [vector] = await embed([q]);
        queryCache.delete(key);
        queryCache.set(key, { at: now(), vector });
        if (queryCache.size > QUERY_CACHE_SIZE) queryCache.delete(queryCache.keys().next().value as string);
      }
      const filter = filterFor(scope);
      const found = await vectorize.query(vector, {
        topK: Math.max(1, Math.min(100, Math.floor(topK))),
        namespace: namespaceOf(portalId),
        returnValues: false,
        returnMetadata: "none",
        ...(filter ? { filter } : {}),
      });
      return (found?.matches ?? []).filter((m) => typeof m.id === "string" && typeof m.score === "number" && m.score >= minScore).map((m) => m.id);
    },
  };
}
