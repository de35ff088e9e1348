/**
 * @module A publish's search work, per source (issue 37): only the shard of the source being published is built
 * (a live API version, or the content release), from the documents already in memory; every other live source keeps
 * its shard untouched. A source whose shard is missing or was built from another document set (published before
 * shards, or its layout or the portal's definition locale changed) gets one rebuilt from its stored model or pages:
 * once, so a portal with an index from before shards pays for all of its sources on its next publish only. The
 * portal's statistics are the previous ones plus the new shards' minus the replaced ones' (never re-summed).
 */
import { blocksLength } from "../search/bytes";
import { documentsOf, eachPartDocument } from "../search/document-set";
import { addStats, emptyStats, SearchShardBuilder, type ShardStats } from "../search/shard-build";
import type { SearchDocument } from "../search/types";
import { semanticFor } from "../semantic/index";
import { loadShard, putIndex, searchPointer, type SearchPointerRow } from "../store/search";
import { shardRows, type ShardRow } from "../store/search-shards";
import type { PublishAttempt } from "./deadline";
import { semanticVectors, type SemanticBuild } from "./search-semantic";

/** A live source as the portal will have it once the change is live: its document set's key, and how to get the documents. */
export interface WantedSource {
  source: string;
  docsKey: string;
  /** The documents (UTF-8 JSON parts): from memory for the source being published, else rebuilt when needed. */
  parts: () => Promise<Uint8Array[]>;
  fresh: boolean;
}

/** What {@link buildShards} hands the flip: the pointer row (with shard rows), bytes written, and vectors to retire. */
export interface ShardedBuild {
  pointer: SearchPointerRow;
  bytes: number;
  semantic?: Omit<SemanticBuild, "vectors">;
}

/**
 * Builds the shards `wanted` needs (fresh sources, and sources without a current shard), writes them to KV and
 * returns the row changes and the portal's new statistics; sources with a shard that are no longer wanted are
 * dropped. `repair`: also rebuild shards whose documents lack vectors (production). Throws the attempt's
 * PublishAborted when the deadline passes.
 */
export async function buildShards(env: Env, portalId: number, wanted: WantedSource[], variables: Record<string, string>, now: string, attempt?: PublishAttempt, repair = false, known?: KnownShards): Promise<ShardedBuild> {
  const rows = known?.rows ?? (await shardRows(env.DB, portalId));
  const existing = new Map(rows.map((r) => [r.source, r]));
  // A portal already sharded keeps its running statistics; one that is not (yet) starts from its rows (none).
  let stats: ShardStats = known?.stats ?? (await searchPointer(env.DB, portalId))?.stats ?? rows.reduce((sum, r) => addStats(sum, r.stats), emptyStats());
  const put: ShardRow[] = [];
  let bytes = 0;
  const retire: string[] = [];
  let embedded = 0;
  let missing = 0;
  const semantic = semanticFor(env);
  for (const w of wanted) {
    const old = existing.get(w.source);
    // `repair` (production, what is live posted again): a shard with documents lacking vectors is rebuilt to embed them.
    if (!w.fresh && old && old.docsKey === w.docsKey && !(repair && semantic && (await lacksVectors(env, old)))) continue;
    attempt?.checkpoint("building the search index");
    const parts = await w.parts();
    const builder = await shardBuilder(env, portalId, semantic, parts, old, attempt, (v) => {
      retire.push(...v.retire);
      embedded += v.embedded;
      missing += v.missing;
    });
    const stored = await storeShard(env, builder, w, attempt);
    bytes += stored.bytes;
    put.push(stored.row);
    stats = addStats(stats, stored.row.stats);
    if (old) stats = addStats(stats, old.stats, -1);
  }
  const keep = new Set(wanted.map((w) => w.source));
  const drop = rows.filter((r) => !keep.has(r.source));
  for (const r of drop) stats = addStats(stats, r.stats, -1);
  const pointer: SearchPointerRow = { portalId, indexKey: "shards", parts: 0, documents: stats.documents, variables, builtAt: now, stats, shards: { put, drop: drop.map((r) => r.source), builtAt: now } };
  return { pointer, bytes, ...(semantic ? { semantic: { retire, embedded, missing } } : {}) };
}

/**
 * What a one-source publish knows of the portal's shards without listing them (search-index.ts
 * {@link oneSourceShards}): the portal's running statistics and the source's own row, if any.
 */
export interface KnownShards {
  stats: ShardStats;
  rows: ShardRow[];
}

/**
 * The portal's statistics and `source`'s own shard row, in one D1 statement, when every other live source
 * (`otherApis` live APIs but `api`, plus the live release) already has a shard: then a publish of `source` reads and
 * writes nothing of the others (issue 37). Undefined when the portal is not sharded yet or a source lacks its shard
 * (a failed build, a portal from before shards): the caller then goes over every source.
 */
export async function oneSourceShards(db: D1Database, portalId: number, api: string): Promise<KnownShards | undefined> {
  const source = `api:${api}`;
  const row = await db.prepare(
    `SELECT l.stats AS stats,
       (SELECT count(*) FROM apis WHERE portal_id = ? AND live_version_id IS NOT NULL AND slug != ?) + (SELECT count(*) FROM content_live WHERE portal_id = ?) AS wanted,
       (SELECT count(*) FROM search_shards WHERE portal_id = ? AND source != ?) AS have,
       (SELECT json_object('source', source, 'key', shard_key, 'parts', parts, 'documents', documents, 'docsKey', docs_key, 'stats', json(stats)) FROM search_shards WHERE portal_id = ? AND source = ?) AS own
     FROM search_live l WHERE l.portal_id = ?`,
  ).bind(portalId, api, portalId, portalId, source, portalId, source, portalId).first<{ stats: string | null; wanted: number; have: number; own: string | null }>();
  if (!row?.stats || row.wanted !== row.have) return undefined;
  return { stats: JSON.parse(row.stats) as ShardStats, rows: row.own ? [JSON.parse(row.own) as ShardRow] : [] };
}

/** Whether a shard has documents without a vector (false when it cannot be read: it is then left as it is). */
async function lacksVectors(env: Env, row: ShardRow): Promise<boolean> {
  const shard = await loadShard(env.MODELS, row).catch(() => undefined);
  if (!shard) return false;
  const vectors = shard.view.vectors;
  return !vectors || vectors.some((v) => !v);
}

/**
 * Stores a built shard of `source`: its documents first, apart (a reader reads them only for what it shows), then the
 * shard naming them. Answers its row and the bytes written. Throws the attempt's PublishAborted past the deadline.
 */
export async function storeShard(env: Env, builder: SearchShardBuilder, source: { source: string; docsKey: string }, attempt?: PublishAttempt): Promise<{ row: ShardRow; bytes: number }> {
  const docBlocks = builder.finishDocs();
  attempt?.checkpoint("storing the search index");
  const docs = await putIndex(env.MODELS, docBlocks);
  const built = builder.finishShard(docs);
  const at = await putIndex(env.MODELS, built.blocks);
  return {
    row: { source: source.source, key: at.key, parts: at.parts, documents: builder.size, docsKey: source.docsKey, stats: built.stats },
    bytes: blocksLength(docBlocks) + blocksLength(built.blocks),
  };
}

/** A shard builder without vectors, fed one source's parts (each released once read, to bound memory). */
export function lexicalShardBuilder(parts: Uint8Array[], attempt?: PublishAttempt): SearchShardBuilder {
  const builder = new SearchShardBuilder({ lazyDocs: true });
  for (let i = 0; i < parts.length; i++) {
    attempt?.checkpoint("building the search index");
    const part = parts[i];
    parts[i] = new Uint8Array(0);
    for (const d of eachPartDocument(part)) builder.add(d);
  }
  return builder;
}

/** A shard builder fed one source's parts (each released once read); in production its vectors are brought up to date first. */
async function shardBuilder(env: Env, portalId: number, semantic: ReturnType<typeof semanticFor>, parts: Uint8Array[], old: ShardRow | undefined, attempt: PublishAttempt | undefined, report: (v: SemanticBuild) => void): Promise<SearchShardBuilder> {
  if (!semantic) return lexicalShardBuilder(parts, attempt);
  const docs: SearchDocument[] = [...documentsOf(parts)];
  // Only this source's previous vectors: the others' stay, as their shards do.
  const previous = old ? await loadShard(env.MODELS, old).then((s) => new Set([...(s?.view.vectors ?? [])].filter(Boolean)), () => new Set<string>()) : new Set<string>();
  const vectors = await semanticVectors(env, semantic, portalId, docs, attempt, previous);
  report(vectors);
  const builder = new SearchShardBuilder({ vectors: vectors.vectors, lazyDocs: true });
  for (const d of docs) builder.add(d);
  return builder;
}
