/**
 * @module Search indexes in storage. An index is immutable and content-addressed in KV (`search/i/<sha256>.txt`
 * or `.bin`, as the engine serialised it; parts of 16 MiB beyond the first at `<key>/<n>`), and documents are
 * kept per source so a build reuses them (`search/d/<docs version>/<digest>`: an API's live model under its label
 * and layout, or a content release). The portal's live index is one D1 row (`search_live`), written by
 * {@link searchPointerStatement} in the same batch that makes a version or release live.
 * Readers load an index once per isolate (cached by key: keys never change meaning).
 */
import { searchLive } from "../../schema";
import { sha256 } from "../content/hash";
import { loadSearchIndex } from "../search/index";
import type { SearchDocument, SearchIndex } from "../search/types";
import type { Db } from "./db";
import { jsonBatches } from "../lib/json-batches";

/** Bump when documents change shape or content: cached document sets of older builds are then rebuilt. */
export const DOCS_VERSION = 1;
/** Largest KV value written (KV allows 25 MiB). */
const PART_BYTES = 16 * 1024 * 1024;

/** Where the live index is and what its snippets need. */
export interface SearchPointer {
  indexKey: string;
  parts: number;
  documents: number;
  variables: Record<string, string>;
  builtAt: string;
}

/** KV key of a cached document set, from the facts that decide its documents. */
export async function documentsKey(...facts: (string | number)[]): Promise<string> {
  return `search/d/${DOCS_VERSION}/${await sha256(JSON.stringify(facts))}`;
}

/**
 * A cached document set, or undefined (also when a part is missing). A set written in parts says how many in the
 * first value's metadata (`{ parts }`); one without metadata is one part.
 */
export async function getDocuments(kv: KVNamespace, key: string): Promise<SearchDocument[] | undefined> {
  const first = await kv.getWithMetadata<SearchDocument[], { parts?: number }>(key, "json");
  if (!first.value) return undefined;
  const parts = first.metadata?.parts ?? 1;
  if (parts <= 1) return first.value;
  const rest = await Promise.all(Array.from({ length: parts - 1 }, (_, i) => kv.get<SearchDocument[]>(`${key}/${i + 1}`, "json")));
  if (rest.some((r) => r === null)) return undefined;
  return first.value.concat(...(rest as SearchDocument[][]));
}

/**
 * Caches a document set as JSON arrays of at most `partBytes` UTF-8 bytes each (KV values are limited to 25 MiB;
 * Microsoft Graph v1.0's 11,422 operations make 17 M characters of documents, beta's about twice that): the
 * first under `key` with `{ parts }` metadata, the others at `<key>/<n>`. The first is written last, so a set
 * that is found is whole.
 */
export async function putDocuments(kv: KVNamespace, key: string, docs: SearchDocument[], partBytes = PART_BYTES / 2): Promise<void> {
  const parts = jsonBatches(docs, partBytes);
  await Promise.all(parts.slice(1).map((p, i) => kv.put(`${key}/${i + 1}`, p)));
  await kv.put(key, parts[0], parts.length > 1 ? { metadata: { parts: parts.length } } : {});
}

/** Writes a serialised index under its content address; returns its key and part count. */
export async function putIndex(kv: KVNamespace, data: string | Uint8Array): Promise<{ key: string; parts: number }> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const key = `search/i/${await sha256(bytes)}.${typeof data === "string" ? "txt" : "bin"}`;
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length || parts.length === 0; at += PART_BYTES) parts.push(bytes.subarray(at, at + PART_BYTES));
  await Promise.all(parts.map((p, i) => kv.put(i === 0 ? key : `${key}/${i}`, p)));
  return { key, parts: parts.length };
}

/** A new live index row: which portal, where the index is, and what its snippets need. */
export interface SearchPointerRow {
  portalId: number;
  indexKey: string;
  parts: number;
  documents: number;
  variables: Record<string, string>;
  builtAt: string;
}

/** The upsert of the portal's live index row (raw D1), to run in the batch that flips a content release. */
export function searchPointerStatement(db: D1Database, row: SearchPointerRow): D1PreparedStatement {
  return db.prepare(
    `INSERT INTO search_live (portal_id, index_key, parts, documents, variables, built_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(portal_id) DO UPDATE SET index_key = excluded.index_key, parts = excluded.parts, documents = excluded.documents, variables = excluded.variables, built_at = excluded.built_at`,
  ).bind(row.portalId, row.indexKey, row.parts, row.documents, JSON.stringify(row.variables), row.builtAt);
}

/** The same upsert (drizzle), to run in the batch that flips a version (store/apis.ts commitVersion). */
export function searchPointerQuery(db: Db, row: SearchPointerRow) {
  const values = { ...row, variables: JSON.stringify(row.variables) };
  const { portalId: _id, ...set } = values;
  return db.insert(searchLive).values(values).onConflictDoUpdate({ target: searchLive.portalId, set });
}

/** The live index pointer of a portal (by id), or undefined when none was built. */
export async function searchPointer(db: D1Database, portalId: number): Promise<SearchPointer | undefined> {
  const row = await db.prepare("SELECT index_key AS indexKey, parts, documents, variables, built_at AS builtAt FROM search_live WHERE portal_id = ?")
    .bind(portalId).first<{ indexKey: string; parts: number; documents: number; variables: string; builtAt: string }>();
  return row ? { ...row, variables: JSON.parse(row.variables) as Record<string, string> } : undefined;
}

/** Loaded indexes per isolate, least recently used first out (an index of 2,000 documents is a few MB). */
const LOADED = new Map<string, Promise<SearchIndex | undefined>>();
const MAX_LOADED = 8;

async function readIndex(kv: KVNamespace, key: string, parts: number): Promise<SearchIndex | undefined> {
  const values = await Promise.all(Array.from({ length: parts }, (_v, i) => kv.get(i === 0 ? key : `${key}/${i}`, "arrayBuffer")));
  if (values.some((v) => v === null)) return undefined;
  const size = values.reduce((n, v) => n + v!.byteLength, 0);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const v of values) {
    bytes.set(new Uint8Array(v!), at);
    at += v!.byteLength;
  }
  return loadSearchIndex(key.endsWith(".txt") ? new TextDecoder().decode(bytes) : bytes);
}

/** The index a pointer names, loaded (cached per isolate); undefined when its KV value is missing. */
export async function loadIndex(kv: KVNamespace, pointer: Pick<SearchPointer, "indexKey" | "parts">): Promise<SearchIndex | undefined> {
  const hit = LOADED.get(pointer.indexKey);
  if (hit) {
    LOADED.delete(pointer.indexKey);
    LOADED.set(pointer.indexKey, hit);
    return hit;
  }
  const loading = readIndex(kv, pointer.indexKey, pointer.parts).catch((error) => {
    LOADED.delete(pointer.indexKey);
    throw error;
  });
  LOADED.set(pointer.indexKey, loading);
  if (LOADED.size > MAX_LOADED) LOADED.delete(LOADED.keys().next().value as string);
  const index = await loading;
  if (!index) LOADED.delete(pointer.indexKey);
  return index;
}
