/**
 * @module A portal's search shards in D1 (issue 37): one `search_shards` row per live source (`api:{slug}`,
 * `content`) naming its shard in KV (immutable, content-addressed like whole indexes), and the portal's summed
 * statistics in `search_live.stats`. A publish writes only its own source's row and the portal's statistics (old
 * + new − replaced), in the batch that flips the version or release.
 */
import { and, eq } from "drizzle-orm";
import { searchShards } from "../../schema";
import type { ShardStats } from "../search/shard-build";
import type { Db } from "./db";

/** Where a live shard is, and the source it indexes (the merge order: sources sorted, so APIs by slug, then content). */
export interface ShardPointer {
  source: string;
  key: string;
  parts: number;
}

/** A shard row: its pointer, document count, the document set it was built from, and its statistics. */
export interface ShardRow extends ShardPointer {
  documents: number;
  docsKey: string;
  stats: ShardStats;
}

/** What a publish changes: shard rows written (new or replacing their source's) and sources dropped. */
export interface ShardChange {
  put: ShardRow[];
  drop: string[];
  builtAt: string;
}

/** The portal's shard rows, sorted by source. */
export async function shardRows(db: D1Database, portalId: number): Promise<ShardRow[]> {
  const { results } = await db.prepare("SELECT source, shard_key AS key, parts, documents, docs_key AS docsKey, stats FROM search_shards WHERE portal_id = ? ORDER BY source")
    .bind(portalId).all<Omit<ShardRow, "stats"> & { stats: string }>();
  return results.map((r) => ({ ...r, stats: JSON.parse(r.stats) as ShardStats }));
}

/** The raw D1 statements of `change` (content releases' batch). */
export function shardStatements(db: D1Database, portalId: number, change: ShardChange): D1PreparedStatement[] {
  return [
    ...change.drop.map((source) => db.prepare("DELETE FROM search_shards WHERE portal_id = ? AND source = ?").bind(portalId, source)),
    ...change.put.map((r) =>
      db.prepare(
        `INSERT INTO search_shards (portal_id, source, shard_key, parts, documents, docs_key, stats, built_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(portal_id, source) DO UPDATE SET shard_key = excluded.shard_key, parts = excluded.parts, documents = excluded.documents, docs_key = excluded.docs_key, stats = excluded.stats, built_at = excluded.built_at`,
      ).bind(portalId, r.source, r.key, r.parts, r.documents, r.docsKey, JSON.stringify(r.stats), change.builtAt),
    ),
  ];
}

/** The same as drizzle queries (a version's batch: store/apis.ts commitVersion). */
export function shardQueries(db: Db, portalId: number, change: ShardChange) {
  return [
    ...change.drop.map((source) => db.delete(searchShards).where(and(eq(searchShards.portalId, portalId), eq(searchShards.source, source)))),
    ...change.put.map((r) => {
      const values = { portalId, source: r.source, shardKey: r.key, parts: r.parts, documents: r.documents, docsKey: r.docsKey, stats: JSON.stringify(r.stats), builtAt: change.builtAt };
      const { portalId: _p, source: _s, ...set } = values;
      return db.insert(searchShards).values(values).onConflictDoUpdate({ target: [searchShards.portalId, searchShards.source], set });
    }),
  ];
}

/** Parses the reader's one-statement view of a portal's shards (`json_group_array` of `[source, key, parts]`). */
export function shardPointersOf(json: string | null | undefined): ShardPointer[] {
  if (!json) return [];
  return (JSON.parse(json) as Array<[string, string, number]>).map(([source, key, parts]) => ({ source, key, parts }));
}

/** SQL of a portal's shard pointers as one JSON value, sorted by source (`p` = the portals row). */
export const SHARDS_JSON_SQL = `(SELECT json_group_array(json_array(x.source, x.shard_key, x.parts)) FROM (SELECT source, shard_key, parts FROM search_shards WHERE portal_id = p.id ORDER BY source) x)`;
