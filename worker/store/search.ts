/**
 * @module Search indexes in storage. An index is immutable and content-addressed in KV (`search/i/<sha256>.txt`
 * or `.bin`, as the engine serialised it; parts of 16 MiB beyond the first at `<key>/<n>`), and documents are
 * kept per source so a build reuses them (`search/d/<docs version>/<digest>`: an API's live model under its label
 * and layout, or a content release). The portal's live index is one D1 row (`search_live`), written by
 * {@link searchPointerStatement} in the same batch that makes a version or release live.
 * Readers load an index once per isolate (cached by key: keys never change meaning).
 */
import { searchLive } from "../../schema";
import { hexOf, sha256 } from "../content/hash";
import { blocksLength, sliceBlocks } from "../search/bytes";
import { DOCUMENT_PART_BYTES, documentParts } from "../search/document-set";
import { loadSearchIndex } from "../search/index";
import { LIGHT_READER_MIN_BYTES } from "../search/load";
import type { ShardStats } from "../search/shard-build";
import type { LazyDocs } from "../search/shard-docs";
import { loadSearchShard, mergeShards, withShardDocuments, type LoadedShard } from "../search/shards";
import type { SearchDocument, SearchIndex } from "../search/types";
import type { Db } from "./db";
import { SHARDS_JSON_SQL, shardPointersOf, shardQueries, shardStatements, type ShardChange, type ShardPointer } from "./search-shards";

/**
 * Bump when documents change shape or content: cached document sets of older builds are then rebuilt.
 * 2: operations carry their first tag's description (`fields.context`).
 * 3: a content page with no text but its title (a headline-only changelog entry) is a document.
 */
export const DOCS_VERSION = 3;
/** Largest KV value written (KV allows 25 MiB). */
const PART_BYTES = 16 * 1024 * 1024;

/** Where the live index is and what its snippets need. */
export interface SearchPointer {
  indexKey: string;
  parts: number;
  documents: number;
  variables: Record<string, string>;
  builtAt: string;
  /** Set when the portal is searched through shards (issue 37): its summed statistics and live shards (then `indexKey` is unused). */
  stats?: ShardStats;
  shards?: ShardPointer[];
  /**
   * The row's generation (a random number drawn at each write: `search_live.generation`). A pointer read without its
   * shards (the reader's one statement) gives it, and {@link loadIndex} reads the shards only when this isolate has
   * no merge of that generation.
   */
  generation?: number;
}

/** KV key of a cached document set, from the facts that decide its documents. */
export async function documentsKey(...facts: (string | number)[]): Promise<string> {
  return `search/d/${DOCS_VERSION}/${await sha256(JSON.stringify(facts))}`;
}

/**
 * A cached document set as its stored parts (UTF-8 JSON arrays, see search/document-set.ts), or undefined (also
 * when a part is missing). A set written in parts says how many in the first value's metadata (`{ parts }`); one
 * without metadata is one part. Every part is fetched before any is used, so a caller never reads half a set.
 */
export async function getDocumentParts(kv: KVNamespace, key: string): Promise<Uint8Array[] | undefined> {
  const first = await kv.getWithMetadata<{ parts?: number }>(key, "arrayBuffer");
  if (!first.value) return undefined;
  const parts = first.metadata?.parts ?? 1;
  const rest = await Promise.all(Array.from({ length: Math.max(0, parts - 1) }, (_, i) => kv.get(`${key}/${i + 1}`, "arrayBuffer")));
  if (rest.some((r) => r === null)) return undefined;
  return [first.value, ...(rest as ArrayBuffer[])].map((b) => new Uint8Array(b));
}

/** A cached document set parsed (tests and small sets; the publisher streams {@link getDocumentParts}). */
export async function getDocuments(kv: KVNamespace, key: string): Promise<SearchDocument[] | undefined> {
  const parts = await getDocumentParts(kv, key);
  if (!parts) return undefined;
  const decoder = new TextDecoder();
  return parts.flatMap((p) => JSON.parse(decoder.decode(p)) as SearchDocument[]);
}

/**
 * Caches a document set given as parts (JSON arrays, each at most a KV value; search/document-set.ts writes them
 * at 2 MiB): the first under `key` with `{ parts }` metadata, the others at `<key>/<n>`. The first is written last,
 * so a set that is found is whole. Microsoft Graph v1.0's 11,422 operations make 17 MB of documents, beta's about
 * twice that: more than one KV value (25 MiB) holds.
 */
export async function putDocumentParts(kv: KVNamespace, key: string, parts: readonly Uint8Array[]): Promise<void> {
  await Promise.all(parts.slice(1).map((p, i) => kv.put(`${key}/${i + 1}`, p)));
  await kv.put(key, parts[0], parts.length > 1 ? { metadata: { parts: parts.length } } : {});
}

/** Caches a document set (see {@link putDocumentParts}) in parts of at most `partBytes` UTF-8 bytes. */
export async function putDocuments(kv: KVNamespace, key: string, docs: SearchDocument[], partBytes = DOCUMENT_PART_BYTES): Promise<void> {
  await putDocumentParts(kv, key, documentParts(docs, partBytes));
}

/**
 * Writes a serialised index under its content address (the SHA-256 of its bytes); returns its key and part
 * count. `data` is the JSON text as a string or as UTF-8 blocks (search/bytes.ts: the builder's output, never
 * joined into one string), or the bytes of a binary format. Parts are copied out of the blocks and written one at
 * a time, and given blocks are released (their slots emptied) once copied: memory stays about the blocks' size.
 */
export async function putIndex(kv: KVNamespace, data: string | Uint8Array | Uint8Array[], partBytes = PART_BYTES): Promise<{ key: string; parts: number }> {
  const blocks = typeof data === "string" ? [new TextEncoder().encode(data)] : data instanceof Uint8Array ? [data] : data;
  const key = `search/i/${await sha256Blocks(blocks)}.${data instanceof Uint8Array ? "bin" : "txt"}`;
  const total = blocksLength(blocks);
  const parts = Math.max(1, Math.ceil(total / partBytes));
  if (blocks.length === 1) {
    await Promise.all(Array.from({ length: parts }, (_, i) => kv.put(i === 0 ? key : `${key}/${i}`, blocks[0].subarray(i * partBytes, (i + 1) * partBytes))));
    return { key, parts };
  }
  // blocks[next] starts at byte `offset` of the stream; blocks before it were released.
  let next = 0;
  let offset = 0;
  for (let i = 0; i < parts; i++) {
    const begin = i * partBytes;
    const end = Math.min(total, begin + partBytes);
    const part = sliceBlocks(blocks.slice(next), begin - offset, end - offset);
    for (; next < blocks.length && offset + blocks[next].byteLength <= end; next++) {
      offset += blocks[next].byteLength;
      blocks[next] = EMPTY;
    }
    await kv.put(i === 0 ? key : `${key}/${i}`, part);
  }
  return { key, parts };
}

const EMPTY = new Uint8Array(0);

/**
 * Hex SHA-256 of the stream `blocks` make. Several blocks go through workerd's `crypto.DigestStream` (no copy of
 * the whole); where that does not exist (plain Node), they are joined first.
 */
async function sha256Blocks(blocks: readonly Uint8Array[]): Promise<string> {
  if (blocks.length === 1) return sha256(blocks[0]);
  const Digest = (crypto as { DigestStream?: typeof DigestStream }).DigestStream;
  if (!Digest) return sha256(sliceBlocks(blocks, 0, blocksLength(blocks)));
  const stream = new Digest("SHA-256");
  const writer = stream.getWriter();
  for (const b of blocks) await writer.write(b);
  await writer.close();
  return hexOf(await stream.digest);
}

/** A new live index row: which portal, where the index is, and what its snippets need. */
export interface SearchPointerRow {
  portalId: number;
  indexKey: string;
  parts: number;
  documents: number;
  variables: Record<string, string>;
  builtAt: string;
  /** Sharded portals (issue 37): the portal's statistics after the change, and the shard rows it writes and drops. */
  stats?: ShardStats;
  shards?: ShardChange;
}

/** Every statement a new live index needs (raw D1, a content release's batch): shard rows, then the pointer row. */
export function searchPointerStatements(db: D1Database, row: SearchPointerRow): D1PreparedStatement[] {
  return [...(row.shards ? shardStatements(db, row.portalId, row.shards) : []), searchPointerStatement(db, row)];
}

/** The same as drizzle queries (a version's batch). */
export function searchPointerQueries(db: Db, row: SearchPointerRow) {
  return [...(row.shards ? shardQueries(db, row.portalId, row.shards) : []), searchPointerQuery(db, row)];
}

/**
 * A new row generation: random, not a counter, so a row deleted and written again never repeats the generation an
 * isolate cached (48 bits: a collision within one portal's next writes is out of reach).
 */
export function newGeneration(): number {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return (hi & 0xffff) * 2 ** 32 + lo;
}

/** The upsert of the portal's live index row (raw D1), to run in the batch that flips a content release. */
export function searchPointerStatement(db: D1Database, row: SearchPointerRow): D1PreparedStatement {
  return db.prepare(
    `INSERT INTO search_live (portal_id, index_key, parts, documents, variables, built_at, stats, generation) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(portal_id) DO UPDATE SET index_key = excluded.index_key, parts = excluded.parts, documents = excluded.documents, variables = excluded.variables, built_at = excluded.built_at, stats = excluded.stats, generation = excluded.generation`,
  ).bind(row.portalId, row.indexKey, row.parts, row.documents, JSON.stringify(row.variables), row.builtAt, row.stats ? JSON.stringify(row.stats) : null, newGeneration());
}

/** The same upsert (drizzle), to run in the batch that flips a version (store/apis.ts commitVersion). */
export function searchPointerQuery(db: Db, row: SearchPointerRow) {
  const { shards: _shards, ...pointer } = row;
  const values = { ...pointer, variables: JSON.stringify(row.variables), stats: row.stats ? JSON.stringify(row.stats) : null, generation: newGeneration() };
  const { portalId: _id, ...set } = values;
  return db.insert(searchLive).values(values).onConflictDoUpdate({ target: searchLive.portalId, set });
}

/** The live index pointer of a portal (by id), or undefined when none was built. */
export async function searchPointer(db: D1Database, portalId: number): Promise<SearchPointer | undefined> {
  const row = await db.prepare(`SELECT index_key AS indexKey, parts, documents, variables, built_at AS builtAt, stats, generation, ${SHARDS_JSON_SQL.replace("p.id", "?")} AS shards FROM search_live WHERE portal_id = ?`)
    .bind(portalId, portalId).first<{ indexKey: string; parts: number; documents: number; variables: string; builtAt: string; stats: string | null; generation: number | null; shards: string | null }>();
  return row ? pointerFromRow(row) : undefined;
}

/**
 * A pointer from its D1 columns (JSON strings parsed; statistics and generation only when the portal's statistics
 * are set). Shards when the row has them (`shards` selected); a reader's row without them is completed by
 * {@link loadIndex} only when needed.
 */
export function pointerFromRow(row: { indexKey: string; parts: number | null; documents: number | null; variables: string | null; builtAt: string | null; stats?: string | null; shards?: string | null; generation?: number | null }): SearchPointer {
  const base = { indexKey: row.indexKey, parts: row.parts ?? 1, documents: row.documents ?? 0, variables: JSON.parse(row.variables ?? "{}") as Record<string, string>, builtAt: row.builtAt ?? "" };
  if (!row.stats) return base;
  const sharded = { ...base, stats: JSON.parse(row.stats) as ShardStats, ...(typeof row.generation === "number" ? { generation: row.generation } : {}) };
  return row.shards === undefined && sharded.generation !== undefined ? sharded : { ...sharded, shards: shardPointersOf(row.shards) };
}

/**
 * What a loaded index is taken to retain, from its stored size: the light reader (indexes from
 * LIGHT_READER_MIN_BYTES) keeps the bytes plus small views (Microsoft Graph v1.0's 21.5 MB index retains ~28 MB:
 * ×1.5 covers it); a smaller index is JSON-parsed into objects, taken as ×4 (a few MB at most).
 */
export function loadedIndexBytes(storedBytes: number): number {
  return Math.ceil(storedBytes * (storedBytes >= LIGHT_READER_MIN_BYTES ? 1.5 : 4));
}

/**
 * The isolate's loaded indexes are bounded by what they retain (estimated by {@link loadedIndexBytes}), not by
 * count: a count of 8 held eight superseded Graph-sized indexes (~28 MB each) in a 128 MB isolate after eight
 * publishes and a query each (issue 12). 48 MiB: one Graph v1.0 index and some small ones; the index loaded last is
 * always kept, even past the bound (Graph beta's is ~60 MB), so a portal's live index is not read again per query.
 */
export const LOADED_MAX_BYTES = 48 * 1024 * 1024;

/** Loaded (or loading: `bytes` 0 until known) indexes per isolate by key, least recently used first. */
const LOADED = new Map<string, { index: Promise<unknown>; bytes: number }>();
let loadedBytes = 0;
let loadedMaxBytes = LOADED_MAX_BYTES;

/** Drops the least recently used indexes (never `keep`) until the loaded ones fit the bound. */
function evictLoaded(keep: string): void {
  for (const [key, entry] of LOADED) {
    if (loadedBytes <= loadedMaxBytes) break;
    if (key === keep || PINNED.has(key)) continue;
    LOADED.delete(key);
    loadedBytes -= entry.bytes;
    dropMerged(key);
    detachDocs(key);
    SHARD_DOCS.delete(key);
  }
}

/** Forgets `key` (a failed or missing load), keeping the byte count true. */
function forgetLoaded(key: string, entry: { bytes: number } | undefined): void {
  if (!entry || LOADED.get(key) !== entry) return;
  LOADED.delete(key);
  loadedBytes -= entry.bytes;
  dropMerged(key);
  detachDocs(key);
  SHARD_DOCS.delete(key);
}

/**
 * The index key each portal's searches last loaded (its live index, as far as this isolate knows), for at most
 * LIVE_KEYS_MAX portals, least recently changed first out. When a portal's key moves (a publish flipped its index),
 * the previous index is dropped at once unless another portal's live key is the same (keys are content addresses).
 */
const LIVE_KEYS = new Map<number, string>();
const LIVE_KEYS_MAX = 4096;

/** Records `key` as `portalId`'s live index; drops the index it replaces when no other portal has it live. */
function noteLive(portalId: number, key: string): void {
  const previous = LIVE_KEYS.get(portalId);
  if (previous === key) return;
  LIVE_KEYS.delete(portalId);
  LIVE_KEYS.set(portalId, key);
  if (LIVE_KEYS.size > LIVE_KEYS_MAX) LIVE_KEYS.delete(LIVE_KEYS.keys().next().value as number);
  if (previous === undefined) return;
  for (const live of LIVE_KEYS.values()) if (live === previous) return;
  forgetLoaded(previous, LOADED.get(previous));
}

/** The keys and estimated bytes of the isolate's loaded indexes, least recently used first (for tests). */
export function loadedIndexes(): { keys: string[]; bytes: number } {
  return { keys: [...LOADED.keys()], bytes: loadedBytes };
}

/**
 * Tests only: empties the isolate's loaded indexes and sets their bound (bytes, as {@link loadedIndexBytes}
 * estimates them; LOADED_MAX_BYTES when omitted), so a bound test needs no 48 MiB of indexes.
 */
export function resetLoadedIndexes(maxBytes = LOADED_MAX_BYTES): void {
  LOADED.clear();
  LIVE_KEYS.clear();
  MERGED.clear();
  LIVE_SHARDS.clear();
  DOC_HOLDERS.clear();
  SHARD_DOCS.clear();
  PINNED = new Set();
  loadedBytes = 0;
  loadedMaxBytes = maxBytes;
}

/**
 * Reads a stored value's KV parts into one byte array. Every part but the last has the first part's length
 * (putIndex cuts at a fixed size), so the whole is allocated once from the first and last parts, and the parts
 * between are fetched one at a time and copied in: memory is the bytes plus about one part, not twice them
 * (Microsoft Graph beta's index is 43 MB). Undefined when a part is missing.
 */
async function readBytes(kv: KVNamespace, key: string, parts: number): Promise<Uint8Array | undefined> {
  const partKey = (i: number) => (i === 0 ? key : `${key}/${i}`);
  const [first, last] = await Promise.all([kv.get(key, "arrayBuffer"), parts > 1 ? kv.get(partKey(parts - 1), "arrayBuffer") : null]);
  if (first === null || (parts > 1 && last === null)) return undefined;
  if (parts === 1) return new Uint8Array(first);
  const size = first.byteLength;
  const bytes = new Uint8Array(size * (parts - 1) + last!.byteLength);
  bytes.set(new Uint8Array(first), 0);
  bytes.set(new Uint8Array(last!), size * (parts - 1));
  for (let i = 1; i < parts - 1; i++) {
    const part = await kv.get(partKey(i), "arrayBuffer");
    if (part === null) return undefined;
    if (part.byteLength !== size) throw new Error(`search index ${key}: part ${i} is ${part.byteLength} bytes, not ${size}`);
    bytes.set(new Uint8Array(part), i * size);
  }
  return bytes;
}

/**
 * A stored value (whole index or shard) loaded once per isolate by key, within LOADED_MAX_BYTES (least recently
 * used first out). The bytes are never decoded into one string: the loaded value keeps them and reads its documents
 * from them (search/index-bytes.ts).
 */
function loadCached<T>(kv: KVNamespace, key: string, parts: number, load: (bytes: Uint8Array) => T, retained: (storedBytes: number) => number = loadedIndexBytes): Promise<T | undefined> {
  const hit = LOADED.get(key);
  if (hit) {
    LOADED.delete(key);
    LOADED.set(key, hit);
    return hit.index as Promise<T | undefined>;
  }
  const entry = { index: Promise.resolve<unknown>(undefined), bytes: 0 };
  entry.index = readBytes(kv, key, parts).then(
    (bytes) => {
      if (!bytes) {
        forgetLoaded(key, entry);
        return undefined;
      }
      const loaded = load(bytes);
      if (LOADED.get(key) === entry) {
        entry.bytes = retained(bytes.byteLength);
        loadedBytes += entry.bytes;
        evictLoaded(key);
      }
      return loaded;
    },
    (error) => {
      forgetLoaded(key, entry);
      throw error;
    },
  );
  LOADED.set(key, entry);
  return entry.index as Promise<T | undefined>;
}

/**
 * The index a pointer names, loaded (cached per isolate within LOADED_MAX_BYTES, least recently used first out);
 * undefined when a KV value is missing. A sharded portal's (issue 37) is its live shards, each loaded once by key,
 * merged with the portal's statistics (shards.ts). `portalId`: the portal whose live pointer this is; the index it
 * had live before in this isolate is dropped then (issue 12: each publish makes a new index, and the superseded ones stayed).
 * A sharded pointer read without its shards (`generation` only, the reader's one statement) is answered from the
 * merge this isolate holds for that generation, else completed from `db` (one more statement: shards, statistics and
 * generation read together, so they always agree).
 */
export async function loadIndex(kv: KVNamespace, pointer: Pick<SearchPointer, "indexKey" | "parts" | "stats" | "shards" | "generation">, portalId?: number, db?: D1Database): Promise<SearchIndex | undefined> {
  if (pointer.stats && !pointer.shards) {
    if (portalId === undefined || !db) throw new Error("loadIndex: a pointer without its shards needs the portal id and D1");
    const live = LIVE_SHARDS.get(portalId);
    const hit = live && live.generation === pointer.generation ? MERGED.get(live.signature) : undefined;
    if (hit) {
      MERGED.delete(live!.signature);
      MERGED.set(live!.signature, hit);
      PINNED = hit.pinned;
      return hit.index;
    }
    const full = await searchPointer(db, portalId);
    if (!full) return undefined;
    pointer = full;
  }
  if (pointer.stats && pointer.shards) {
    const keys = pointer.shards.map((s) => s.key);
    const signature = JSON.stringify([keys, pointer.stats]);
    // Found before the shards a publish replaced are forgotten (which drops the merges holding them).
    const previous = closestMerge(keys);
    if (portalId !== undefined) noteLiveShards(portalId, keys, signature, pointer.generation);
    return loadSharded(kv, pointer.shards, pointer.stats, signature, previous);
  }
  const key = pointer.indexKey;
  if (portalId !== undefined) noteLive(portalId, key);
  return loadCached(kv, key, pointer.parts, (bytes) => loadSearchIndex(bytes));
}

/**
 * Merged shard sets by their signature (shard keys and statistics), least recently used first; a merge holds its
 * shards, so one is dropped as soon as any of its shards leaves LOADED, and at most MERGED_MAX are kept.
 */
const MERGED = new Map<string, { index: Promise<SearchIndex | undefined>; keys: string[]; pinned: Set<string> }>();
const MERGED_MAX = 64;
/**
 * The shards of the set searched last: never evicted for another value, as the index loaded last never was (a
 * portal whose shards together pass the bound, Microsoft Graph's beside 200 small APIs, would otherwise evict its
 * own shards while loading them, and reload and re-merge them on every query).
 */
let PINNED = new Set<string>();
/**
 * Each portal's live shards as this isolate last saw them (bounded like LIVE_KEYS): their keys, the signature of
 * their merge in MERGED, and the pointer row's generation that named them (when known).
 */
const LIVE_SHARDS = new Map<number, { keys: string[]; signature: string; generation?: number }>();

/** Records `keys` as `portalId`'s live shards; drops the shards it replaces that no other portal has live. */
function noteLiveShards(portalId: number, keys: string[], signature: string, generation: number | undefined): void {
  const previous = LIVE_SHARDS.get(portalId);
  LIVE_SHARDS.delete(portalId);
  LIVE_SHARDS.set(portalId, { keys, signature, ...(generation !== undefined ? { generation } : {}) });
  if (LIVE_SHARDS.size > LIVE_KEYS_MAX) LIVE_SHARDS.delete(LIVE_SHARDS.keys().next().value as number);
  if (!previous || previous.signature === signature) return;
  const now = new Set(keys);
  const elsewhere = new Set([...LIVE_SHARDS.values()].flatMap((l) => l.keys));
  for (const key of previous.keys) {
    if (now.has(key) || elsewhere.has(key)) continue;
    // A lazy shard's documents go with it (content-addressed: the same documents may be another live shard's).
    const docs = SHARD_DOCS.get(key);
    forgetLoaded(key, LOADED.get(key));
    if (docs && ![...now, ...elsewhere].some((k) => SHARD_DOCS.get(k) === docs)) forgetLoaded(docs, LOADED.get(docs));
  }
}

function dropMerged(key: string): void {
  for (const [signature, merged] of MERGED) if (merged.keys.includes(key)) MERGED.delete(signature);
}

/**
 * The cached merge sharing most shards with `keys` (the portal's before its last publish; the most recently used
 * among equals): the next merge reuses its vocabulary, so the first query after a publish walks the new shard's
 * terms, not the whole portal's (shards.ts).
 */
function closestMerge(keys: readonly string[]): Promise<SearchIndex | undefined> | undefined {
  const wanted = new Set(keys);
  let closest: Promise<SearchIndex | undefined> | undefined;
  let most = 0;
  for (const merged of MERGED.values()) {
    const shared = merged.keys.filter((k) => wanted.has(k)).length;
    if (shared >= most && shared > 0) (most = shared), (closest = merged.index);
  }
  return closest;
}

/**
 * Shards read from KV at once while a merge loads them (small shards: a cold isolate's first query in a portal of
 * 200 APIs waited on 200 reads one after another); a shard stored in several parts (16 MiB each) is read alone.
 */
export const SHARD_READS_IN_FLIGHT = 8;

async function loadSharded(kv: KVNamespace, shards: readonly ShardPointer[], stats: ShardStats, signature: string, closest?: Promise<SearchIndex | undefined>): Promise<SearchIndex | undefined> {
  const keys = shards.map((s) => s.key);
  const hit = MERGED.get(signature);
  if (hit) {
    PINNED = hit.pinned;
    MERGED.delete(signature);
    MERGED.set(signature, hit);
    return hit.index;
  }
  const pinned = new Set(keys);
  PINNED = pinned;
  const index = (async () => {
    const loaded = await loadShards(kv, shards);
    if (!loaded) return undefined;
    const previous = await closest?.catch(() => undefined);
    const merged = mergeShards(loaded, stats, previous);
    PINS.set(merged, pinned);
    return merged;
  })();
  MERGED.set(signature, { index, keys, pinned });
  if (MERGED.size > MERGED_MAX) MERGED.delete(MERGED.keys().next().value as string);
  index.catch(() => MERGED.delete(signature));
  return index;
}

/**
 * `shards` loaded in order, at most SHARD_READS_IN_FLIGHT reads at once (a shard in several parts alone); undefined
 * when one is missing.
 */
async function loadShards(kv: KVNamespace, shards: readonly ShardPointer[]): Promise<LoadedShard[] | undefined> {
  const out: Array<LoadedShard | undefined> = new Array(shards.length);
  let next = 0;
  let missing = false;
  const worker = async (): Promise<void> => {
    while (next < shards.length && !missing) {
      const s = shards[next++];
      const at = next - 1;
      out[at] = await loadCached(kv, s.key, s.parts, (bytes) => loadSearchShard(bytes));
      if (!out[at]) missing = true;
      else noteShardDocs(s.key, out[at]!);
    }
  };
  // Big shards first, one at a time, so that two of them are never read together.
  const big = shards.filter((s) => s.parts > 1);
  for (const s of big) {
    const shard = await loadCached(kv, s.key, s.parts, (bytes) => loadSearchShard(bytes));
    if (!shard) return undefined;
    noteShardDocs(s.key, shard);
  }
  await Promise.all(Array.from({ length: Math.min(SHARD_READS_IN_FLIGHT, shards.length) }, worker));
  return missing ? undefined : (out as LoadedShard[]);
}

/** One shard, loaded (cached like indexes); undefined when its KV value is missing. */
export function loadShard(kv: KVNamespace, shard: Pick<ShardPointer, "key" | "parts">): Promise<LoadedShard | undefined> {
  return loadCached(kv, shard.key, shard.parts, (bytes) => loadSearchShard(bytes));
}

/** Each merged index's pinned keys (its shards'; the documents its searches attached join them while it is pinned). */
const PINS = new WeakMap<SearchIndex, Set<string>>();
/** Lazy shards' document tables by the key of the documents attached to them, to detach when that value is evicted. */
const DOC_HOLDERS = new Map<string, Set<LazyDocs>>();
/** The documents' key of each loaded lazy shard, by shard key: a replaced shard's documents are dropped with it. */
const SHARD_DOCS = new Map<string, string>();

function noteShardDocs(shardKey: string, shard: LoadedShard): void {
  if (shard.lazyDocs) SHARD_DOCS.set(shardKey, shard.lazyDocs.key);
}

function detachDocs(key: string): void {
  const holders = DOC_HOLDERS.get(key);
  if (!holders) return;
  DOC_HOLDERS.delete(key);
  for (const docs of holders) docs.detach();
}

/**
 * Runs `run` (synchronous searches of `index`, as loaded by {@link loadIndex}) with the documents it reads: a lazy
 * shard's documents (search/shard-build.ts LAZY_SHARD_FORMAT) are read from KV only when a search shows one of them
 * or ranks by its title, and `run` is run again once they are attached (search/shards.ts withShardDocuments: the
 * answer is the one with every document loaded). Documents are cached like shards (by key, within LOADED_MAX_BYTES;
 * those of the set searched last are pinned with it). Every reader surface searching a loaded index goes through this.
 * @throws Error when a live shard's documents are missing from KV.
 */
export function searchLoaded<T>(kv: KVNamespace, index: SearchIndex, run: () => T): Promise<T> {
  return withShardDocuments(index, run, async (docs) => {
    // Kept as bytes (each document parsed when read), so what they retain is their size.
    const bytes = await loadCached(kv, docs.key, docs.parts, (b) => b, (n) => n);
    if (!bytes) return undefined;
    let holders = DOC_HOLDERS.get(docs.key);
    if (!holders) DOC_HOLDERS.set(docs.key, (holders = new Set()));
    holders.add(docs);
    const pins = PINS.get(index);
    if (pins && pins === PINNED) pins.add(docs.key);
    return bytes;
  });
}
