/**
 * @module API references and versions in D1, operations in the portal's catalog (store/portal-catalog.ts, issue 37):
 * the reads readers need and the writes publishing does.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { apis, versions } from "../../schema";
import type { OperationSummary } from "../openapi/model/types";
import type { Db } from "./db";
import type { SliceLocation } from "./models";
import { putOperations, type Catalog, type CatalogOperation } from "./portal-catalog";
import { searchPointerQueries, type SearchPointerRow } from "./search";
import { BoundedCache } from "../lib/bounded-cache";

/** Rows as drizzle reads them from the tables in schema/apis.ts. */
export type ApiRow = typeof apis.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;
/** An operation row of a version, from the portal's catalog. */
export type OperationRow = CatalogOperation;

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

/** A version's operations in document order (one call to the portal's catalog). */
export async function listOperations(catalog: Catalog, versionId: number): Promise<OperationRow[]> {
  return catalog.stub.operations(catalog.portalId, versionId);
}

/** A version's operations whose first tag is `tag` ("" for untagged), in document order. */
export async function listOperationsOfTag(catalog: Catalog, versionId: number, tag: string): Promise<OperationRow[]> {
  return catalog.stub.operationsOfTag(catalog.portalId, versionId, tag);
}

/**
 * Tag lists kept per isolate, by model key and tag: a published version's operation rows never change and follow
 * from its definition, which the model key names (store/models.ts), so a warm operation page skips this call to the portal's catalog.
 * Sized in operations: at most 20,000, none of more than 5,000 (Microsoft Graph's untagged list is read each time).
 */
const TAG_SUMMARIES = new BoundedCache<string, OperationSummary[]>({ maxSize: 20_000, maxEntrySize: 5_000 });

/** {@link listOperationsOfTag} of a published version as summaries (the sidebar's list); callers must not change it. */
export async function operationSummariesOfTag(catalog: Catalog, version: Pick<VersionRow, "id" | "modelKey">, tag: string): Promise<readonly OperationSummary[]> {
  const key = `${version.modelKey}\n${tag}`;
  const hit = TAG_SUMMARIES.get(key);
  if (hit) return hit;
  const summaries = (await listOperationsOfTag(catalog, version.id, tag)).map(operationSummaryOf);
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

function operationRows(ops: OperationSummary[], locations: Map<string, SliceLocation>) {
  return ops.map((op) => {
    const at = locations.get(op.slug)!;
    return { slug: op.slug, kind: op.kind, method: op.method, path: op.path, operationId: op.operationId ?? null, summary: op.summary ?? null, tag: op.tags[0] ?? "", deprecated: op.deprecated, chunk: at.chunk, sliceOffset: at.offset, sliceLength: at.length };
  });
}

/**
 * Stores the version's operation rows in the portal's catalog, then marks it published and flips the API's live
 * pointer in one D1 batch (a single transaction): readers see the old version whole or the new one whole, since they
 * find a version's id in D1 before reading its rows. With `search`, the portal's live search shards flip in the same
 * batch. A failed batch leaves rows of an unpublished version, which {@link failVersion} drops.
 */
export async function commitVersion(
  db: Db,
  catalog: Catalog,
  apiId: number,
  versionId: number,
  ops: OperationSummary[],
  locations: Map<string, SliceLocation>,
  search?: SearchPointerRow,
): Promise<void> {
  await putOperations(catalog, versionId, operationRows(ops, locations));
  await db.batch([
    db.update(versions).set({ status: "published" }).where(eq(versions.id, versionId)),
    db.update(apis).set({ liveVersionId: versionId }).where(eq(apis.id, apiId)),
    ...(search ? searchPointerQueries(db, search) : []),
  ]);
}

/**
 * Stores a version's operation rows in the portal's catalog and marks it `status` without making it live: "preview"
 * (a Git branch preview's version, docs/git.md), or "staged" (a part of a Git release, made live with the others in
 * one batch by worker/git/sync.ts). Never listed with the published versions until then.
 */
export async function stageVersion(db: Db, catalog: Catalog, versionId: number, status: "preview" | "staged", ops: OperationSummary[], locations: Map<string, SliceLocation>): Promise<void> {
  await putOperations(catalog, versionId, operationRows(ops, locations));
  await db.update(versions).set({ status }).where(eq(versions.id, versionId));
}

/** Marks a pending version failed (kept for the record; never served) and drops its catalog rows, if any (best effort). */
export async function failVersion(db: Db, versionId: number, catalog?: Catalog): Promise<void> {
  await db.update(versions).set({ status: "failed" }).where(eq(versions.id, versionId));
  if (catalog) await catalog.stub.dropVersion(catalog.portalId, versionId).catch((error: unknown) => console.error("failVersion: catalog rows not dropped", versionId, error));
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
 * report is replaced: a report already complete (a recovery run racing the first) stays as it was. The report
 * itself goes to the portal's catalog (issue 37: up to ~1 MB per publication is per-portal data), D1 keeps the
 * counts and the status, flipped once the report is stored.
 */
export async function recordLint(db: Db, catalog: Catalog, versionId: number, report: { errors: number; warnings: number }, json: string): Promise<void> {
  const row = await db.select({ lintStatus: versions.lintStatus }).from(versions).where(eq(versions.id, versionId)).get();
  if (row?.lintStatus !== "pending") return;
  await catalog.stub.putLintReport(catalog.portalId, versionId, json);
  await db
    .update(versions)
    .set({ lint: "{}", lintErrors: report.errors, lintWarnings: report.warnings, lintStatus: "complete" })
    .where(and(eq(versions.id, versionId), eq(versions.lintStatus, "pending")));
}

/**
 * A version row with its stored lint report (publish/lint-step.ts `storedLintReport` reads `lint`): from the
 * portal's catalog (issue 37), else the row's own column (a report the catalog has not moved yet, or none).
 */
export async function withLintReport<T extends { id: number; lint: string; lintStatus: string }>(catalog: Catalog, row: T): Promise<T> {
  if (row.lintStatus === "pending") return row;
  const report = await catalog.stub.lintReport(catalog.portalId, row.id);
  return report === null ? row : { ...row, lint: report };
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
  catalog: Catalog,
  apiId: number,
  versionId: number,
  slug: string,
): Promise<{ slug: string } | { tag: string } | undefined> {
  const published = await db.select({ id: versions.id }).from(versions).where(and(eq(versions.apiId, apiId), eq(versions.status, "published"))).all();
  return (await catalog.stub.moved(catalog.portalId, published.map((v) => v.id), versionId, slug)) ?? undefined;
}
