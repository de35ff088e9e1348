/**
 * @module The publish-time half of semantic retrieval: before the portal's lexical index is built, its documents'
 * vectors are brought up to date in the vector store, and the index records which vector each document has.
 *
 * - Vector ids are content-addressed (SHA-256 of model, portal, document id, metadata and embedded text; 48 hex
 *   digits, under Vectorize's 64 bytes), so an unchanged document keeps its id and is not embedded again: only ids
 *   the live index does not list yet are embedded (a republish of a big API embeds what changed).
 * - The new index lists only ids that are stored (listed by the live index, or stored by this publish). Readers map
 *   matches to documents through the live index alone, and the index flips in the D1 batch that makes the content
 *   live, so vectors written for a publish that never goes live, or for documents that left, are never read.
 * - Ids the live index lists and the new one does not are deleted after the flip ({@link retireVectors}); ids a
 *   publish stored that never went live (it failed, ran out of time, was a dry run) once it has settled
 *   ({@link discardUnlisted}, run by the PortalPublisher in the publish's queue slot, so no later publish races it).
 * - Embedding never fails a publish: on an error or out of time, the documents left over are lexical-only until a
 *   later publish embeds them (logged).
 */
import { sha256 } from "../content/hash";
import { withinMs } from "../lib/time-limit";
import { accessKey, embeddingText, semanticSource, type SemanticItem, type SemanticRetriever } from "../search/semantic";
import type { SearchDocument } from "../search/types";
import { loadIndex, searchPointer } from "../store/search";
import { semanticFor } from "../semantic/index";
import type { PublishAttempt } from "./deadline";

/** Wall-clock milliseconds a publish gives embeddings at most ... */
export const SEMANTIC_PUBLISH_MS = 12_000;
/** ... and what it keeps of its deadline for the lexical build and the D1 commit after them. */
const RESERVE_MS = 10_000;

/** How long a publish waits for stale vectors to be deleted after its flip (its answer waits for it). */
const RETIRE_MS = 5_000;

/** What the semantic step hands the index build, and what to delete once the new index is live. */
export interface SemanticBuild {
  /** Document id → id of its stored vector. */
  vectors: Map<string, string>;
  /** Ids the live index lists that the new one does not: delete after the flip. */
  retire: string[];
  /** Documents embedded by this publish, and left without a vector (error or time). */
  embedded: number;
  missing: number;
}

/** The vector item of a document (its id hashes everything that decides the vector and its metadata). */
export async function semanticItem(model: string, portalId: number, doc: SearchDocument): Promise<SemanticItem> {
  const text = embeddingText(doc);
  const metadata = {
    portal: portalId,
    source: semanticSource(doc),
    kind: doc.kind,
    locale: doc.locale,
    access: accessKey(doc.labels),
    labels: [...new Set(doc.labels ?? [])].sort().join(","),
    doc: doc.id,
  };
  const id = (await sha256(JSON.stringify([model, metadata, text]))).slice(0, 48);
  return { id, text, metadata };
}

/** Vector ids of the portal's live index (empty when it has none, or it cannot be read). */
export async function liveVectorIds(env: Env, portalId: number): Promise<Set<string>> {
  try {
    return await listedVectorIds(env, portalId);
  } catch (error) {
    console.error("publish: the live search index could not be read; every document is embedded again", error);
    return new Set();
  }
}

/** Vector ids of the portal's live index (empty when it has none); throws when it cannot be read. */
async function listedVectorIds(env: Env, portalId: number): Promise<Set<string>> {
  const pointer = await searchPointer(env.DB, portalId);
  const index = pointer ? await loadIndex(env.MODELS, pointer, portalId) : undefined;
  return new Set(index?.vectorIds() ?? []);
}

/**
 * Embeds and stores the vectors `docs` lack (first document per id, as the index build keeps), within the
 * attempt's time; returns the table for the index build. `previous`: the vector ids the documents' source had live
 * (its replaced shard's, issue 37: only the changed source is embedded, and only its own vectors retired); the whole
 * live index's when omitted. Never throws but the attempt's own PublishAborted.
 */
export async function semanticVectors(env: Env, semantic: SemanticRetriever, portalId: number, docs: SearchDocument[], attempt?: PublishAttempt, previous?: Set<string>): Promise<SemanticBuild> {
  const seen = new Set<string>();
  const unique = docs.filter((d) => !seen.has(d.id) && seen.add(d.id));
  const items = await Promise.all(unique.map(async (d) => ({ doc: d.id, item: await semanticItem(semantic.model, portalId, d) })));
  const live = previous ?? (await liveVectorIds(env, portalId));
  const current = new Set(items.map((i) => i.item.id));
  const queued = new Set<string>();
  const toStore = items.map((i) => i.item).filter((i) => !live.has(i.id) && !queued.has(i.id) && queued.add(i.id));
  attempt?.checkpoint("embedding search documents");
  const until = Math.min(Date.now() + SEMANTIC_PUBLISH_MS, (attempt?.deadline ?? Infinity) - RESERVE_MS);
  const outcome = toStore.length ? await semantic.store(portalId, toStore, until) : { stored: [], skipped: 0 };
  if (attempt && outcome.stored.length) attempt.vectorsStored.set(portalId, [...(attempt.vectorsStored.get(portalId) ?? []), ...outcome.stored]);
  if ("error" in outcome && outcome.error !== undefined) {
    console.error(`publish: embedding stopped after ${outcome.stored.length} of ${toStore.length} documents; the rest are found by words only until a later publish`, outcome.error);
  } else if (outcome.skipped) {
    console.error(`publish: out of time for embeddings; ${outcome.skipped} documents are found by words only until a later publish`);
  }
  const present = new Set([...outcome.stored, ...[...live].filter((id) => current.has(id))]);
  const vectors = new Map<string, string>();
  for (const { doc, item } of items) if (present.has(item.id)) vectors.set(doc, item.id);
  return { vectors, retire: [...live].filter((id) => !current.has(id)), embedded: outcome.stored.length, missing: items.length - vectors.size };
}

/**
 * Deletes the vectors of `stored` (ids a settled publish stored) that the portal's live index does not list:
 * what a publish that never went live left behind. Best effort (logged); when the live index cannot be read
 * nothing is deleted, since its vectors may be among them.
 */
export async function discardUnlisted(env: Env, portalId: number, stored: readonly string[]): Promise<void> {
  const semantic = semanticFor(env);
  if (!semantic || !stored.length) return;
  let listed: Set<string>;
  try {
    listed = await listedVectorIds(env, portalId);
  } catch (error) {
    console.error(`publish: ${stored.length} vectors of a settled publish were kept: the live search index could not be read`, error);
    return;
  }
  await retireVectors(semantic, portalId, stored.filter((id) => !listed.has(id)));
}

/** Deletes the vectors the previous live index used and the new one does not; best effort (logged). */
export async function retireVectors(semantic: SemanticRetriever | undefined, portalId: number, ids: readonly string[] | undefined): Promise<void> {
  if (!semantic || !ids?.length) return;
  try {
    await withinMs(RETIRE_MS, semantic.remove(portalId, [...ids]));
  } catch (error) {
    console.error(`publish: ${ids.length} stale search vectors could not be deleted (they map to no live document)`, error);
  }
}
