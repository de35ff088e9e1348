/** @module API references, versions and operations in D1: the reads readers need and the writes publishing does. */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { apis, operations, versions } from "../../schema";
import type { OperationSummary } from "../openapi/model/types";
import type { Db } from "./db";
import type { SliceLocation } from "./models";
import { searchPointerQueries, type SearchPointerRow } from "./search";
import { BoundedCache } from "../lib/bounded-cache";
import { jsonBatches } from "../lib/json-batches";

/** Rows as drizzle reads them from the tables in schema/apis.ts. */
export type ApiRow = typeof apis.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
export type OperationRow = typeof operations.$inferSelect;

/** A portal's APIs by slug: the query, for batching. */
export function apisQuery(db: Db, portalId: number) {
  return db.select().from(apis).where(eq(apis.portalId, portalId)).orderBy(asc(apis.slug));
}

/** A portal's APIs (published or not), by slug. */
export async function listApis(db: Db, portalId: number): Promise<ApiRow[]> {
  return apisQuery(db, portalId).all();
}

/** One API of a portal by slug, or undefined. */
export async function findApi(db: Db, portalId: number, slug: string): Promise<ApiRow | undefined> {
  return db.select().from(apis).where(and(eq(apis.portalId, portalId), eq(apis.slug, slug))).get();
}

/** A version row by id (any status), or undefined. */
export async function findVersionById(db: Db, id: number): Promise<VersionRow | undefined> {
  return db.select().from(versions).where(eq(versions.id, id)).get();
}

/** One entry per published label (its newest row), newest label first: the query, for batching. */
export function publishedVersionsQuery(db: Db, apiId: number) {
  return db
    .select()
    .from(versions)
    .where(
      and(
        eq(versions.apiId, apiId),
        eq(versions.status, "published"),
        sql`${versions.id} = (select max(v2.id) from versions v2 where v2.api_id = ${versions.apiId} and v2.label = ${versions.label} and v2.status = 'published')`,
      ),
    )
    .orderBy(desc(versions.id));
}

/** A version's operations in document order. */
export async function listOperations(db: Db, versionId: number): Promise<OperationRow[]> {
  return db.select().from(operations).where(eq(operations.versionId, versionId)).orderBy(asc(operations.position)).all();
}

/** A version's operations whose first tag is `tag` ("" for untagged), in document order. */
export async function listOperationsOfTag(db: Db, versionId: number, tag: string): Promise<OperationRow[]> {
  return db
    .select()
    .from(operations)
    .where(and(eq(operations.versionId, versionId), eq(operations.tag, tag)))
    .orderBy(asc(operations.position))
    .all();
}

/**
 * Tag lists kept per isolate, by model key and tag: a published version's operation rows never change and follow
 * from its definition, which the model key names (store/models.ts), so a warm operation page skips this D1 read.
 * Sized in operations: at most 20,000, none of more than 5,000 (Microsoft Graph's untagged list is read each time).
 */
const TAG_SUMMARIES = new BoundedCache<string, OperationSummary[]>({ maxSize: 20_000, maxEntrySize: 5_000 });

/** {@link listOperationsOfTag} of a published version as summaries (the sidebar's list); callers must not change it. */
export async function operationSummariesOfTag(db: Db, version: Pick<VersionRow, "id" | "modelKey">, tag: string): Promise<readonly OperationSummary[]> {
  const key = `${version.modelKey}\n${tag}`;
  const hit = TAG_SUMMARIES.get(key);
  if (hit) return hit;
  const summaries = (await listOperationsOfTag(db, version.id, tag)).map(operationSummaryOf);
  return TAG_SUMMARIES.set(key, summaries, summaries.length);
}

/** Where an operation row's slice is in KV. */
export function sliceLocationOf(row: OperationRow): SliceLocation {
  return { chunk: row.chunk, offset: row.sliceOffset, length: row.sliceLength };
}

/** An operation row back in the model's shape (tags beyond the first are not kept in D1). */
export function operationSummaryOf(row: OperationRow): OperationSummary {
  return {
    slug: row.slug,
    kind: row.kind as OperationSummary["kind"],
    method: row.method,
    path: row.path,
    operationId: row.operationId ?? undefined,
    summary: row.summary ?? undefined,
    tags: row.tag ? [row.tag] : [],
    deprecated: row.deprecated,
  };
}

/** Finds or creates the API row (title refreshed from the newest upload). */
export async function upsertApi(db: Db, portalId: number, slug: string, title: string, now: string): Promise<ApiRow> {
  const existing = await findApi(db, portalId, slug);
  if (existing) {
    if (existing.title !== title) await db.update(apis).set({ title }).where(eq(apis.id, existing.id));
    return { ...existing, title };
  }
  return db.insert(apis).values({ portalId, slug, title, createdAt: now }).returning().get();
}

/** Records an accepted publication as pending: invisible to readers until {@link commitVersion}. */
export async function insertPendingVersion(db: Db, row: Omit<typeof versions.$inferInsert, "id" | "status">): Promise<VersionRow> {
  return db.insert(versions).values({ ...row, status: "pending" }).returning().get();
}

/**
 * Writes the version's operation rows, marks it published and flips the API's live pointer, in one D1 batch
 * (a single transaction): readers see the old version whole or the new one whole. With `search`, the portal's
 * live search index flips in the same batch.
 */
export async function commitVersion(
  db: Db,
  apiId: number,
  versionId: number,
  ops: OperationSummary[],
  locations: Map<string, SliceLocation>,
  search?: SearchPointerRow,
): Promise<void> {
  // Operation rows travel as JSON parameters expanded by json_each (columns in table order, id null): one statement
  // per ~1 MB of rows, where D1's 100 bound parameters per statement would need one per 7 rows. D1 caps a string
  // parameter at 2 MB, and Microsoft Graph's 11,422 rows are 3.3 MB, so they are split (all in the one batch).
  const rows = ops.map((op, position) => {
    const at = locations.get(op.slug)!;
    return [position, op.slug, op.kind, op.method, op.path, op.operationId ?? null, op.summary ?? null, op.tags[0] ?? "", op.deprecated ? 1 : 0, at.chunk, at.offset, at.length];
  });
  const column = (i: number) => sql.raw(`json_extract(value, '$[${i}]')`);
  const inserts = jsonBatches(rows, ROWS_PARAMETER_BYTES).map((json) =>
    db.insert(operations).select(
      sql`select null, ${versionId}, ${column(0)}, ${column(1)}, ${column(2)}, ${column(3)}, ${column(4)}, ${column(5)}, ${column(6)}, ${column(7)}, ${column(8)}, ${column(9)}, ${column(10)}, ${column(11)} from json_each(${json})`,
    ),
  );
  await db.batch([
    ...(inserts as [(typeof inserts)[number], ...typeof inserts]),
    db.update(versions).set({ status: "published" }).where(eq(versions.id, versionId)),
    db.update(apis).set({ liveVersionId: versionId }).where(eq(apis.id, apiId)),
    ...(search ? searchPointerQueries(db, search) : []),
  ]);
}

/** UTF-8 bytes one JSON parameter of operation rows may hold: half of D1's 2 MB cap on a string. */
export const ROWS_PARAMETER_BYTES = 1_000_000;

/** Marks a pending version failed (kept for the record; never served). */
export async function failVersion(db: Db, versionId: number): Promise<void> {
  await db.update(versions).set({ status: "failed" }).where(eq(versions.id, versionId));
}

/** A published version of an API by label (its newest publication), or undefined. */
export async function findPublishedVersion(db: Db, apiId: number, label: string): Promise<VersionRow | undefined> {
  return db
    .select()
    .from(versions)
    .where(and(eq(versions.apiId, apiId), eq(versions.label, label), eq(versions.status, "published")))
    .orderBy(desc(versions.id))
    .limit(1)
    .get();
}

/**
 * Stores a version's lint report once its late lint has run (issue 12) and marks it complete. Only a pending
 * report is replaced: a report already complete (a recovery run racing the first) stays as it was.
 */
export async function recordLint(db: Db, versionId: number, report: { errors: number; warnings: number }, json: string): Promise<void> {
  await db
    .update(versions)
    .set({ lint: json, lintErrors: report.errors, lintWarnings: report.warnings, lintStatus: "complete" })
    .where(and(eq(versions.id, versionId), eq(versions.lintStatus, "pending")));
}

/** Sets an API's layout ("page-per-operation" or "single-page"). */
export async function setLayout(db: Db, apiId: number, layout: string): Promise<void> {
  await db.update(apis).set({ layout }).where(eq(apis.id, apiId));
}

/**
 * Where an operation slug that is not in `versionId` went: the same method + path in this version (a renamed
 * operationId), else its tag, looked up from any other published version of the same API carrying that slug.
 */
export async function findMovedOperation(
  db: Db,
  apiId: number,
  versionId: number,
  slug: string,
): Promise<{ slug: string } | { tag: string } | undefined> {
  const elsewhere = await db
    .select({ method: operations.method, path: operations.path, tag: operations.tag, kind: operations.kind })
    .from(operations)
    .innerJoin(versions, eq(versions.id, operations.versionId))
    .where(and(eq(operations.slug, slug), eq(versions.apiId, apiId), eq(versions.status, "published")))
    .orderBy(desc(versions.id))
    .get();
  if (!elsewhere) return undefined;
  const same = await db
    .select({ slug: operations.slug })
    .from(operations)
    .where(
      and(
        eq(operations.versionId, versionId),
        eq(operations.method, elsewhere.method),
        eq(operations.path, elsewhere.path),
        eq(operations.kind, elsewhere.kind),
      ),
    )
    .get();
  if (same) return { slug: same.slug };
  if (elsewhere.tag) {
    const tagged = await db
      .select({ slug: operations.slug })
      .from(operations)
      .where(and(eq(operations.versionId, versionId), eq(operations.tag, elsewhere.tag)))
      .get();
    if (tagged) return { tag: elsewhere.tag };
  }
  return undefined;
}
