/** @module What a reader page needs from D1, fetched together: portal, APIs, the API's versions, the version. */
import { ApiError } from "../http/errors";
import { and, eq, sql } from "drizzle-orm";
import { apis, operations, portals, versions } from "../../schema";
import { apisQuery, publishedVersionsQuery, type ApiRow, type OperationRow, type VersionRow } from "./apis";
import type { Db } from "./db";
import { findPortalBySlug, type PortalRow } from "./portals";

/** The D1 facts behind one reference page. */
export interface ReaderContext {
  portal: PortalRow;
  apis: ApiRow[];
  api: ApiRow;
  versions: VersionRow[];
  version: VersionRow;
  /** True when `version` is the API's live one. */
  live: boolean;
}

/** @throws ApiError 404 when the portal is unknown. */
export async function loadPortal(db: Db, portalSlug: string): Promise<PortalRow> {
  const portal = await findPortalBySlug(db, portalSlug);
  if (!portal) throw new ApiError(404, "not-found", `no portal "${portalSlug}"`);
  return portal;
}

/**
 * The portal and API behind a reference URL, in one D1 round trip: `api` is undefined when the portal has no API of
 * that slug, or one with nothing published (the caller answers 404 once access is decided).
 * @throws ApiError 404 for an unknown portal.
 */
export async function loadReaderHead(db: Db, portalSlug: string, apiSlug: string): Promise<{ portal: PortalRow; api?: ApiRow }> {
  const head = await db
    .select({ portal: portals, api: apis })
    .from(portals)
    .leftJoin(apis, and(eq(apis.portalId, portals.id), eq(apis.slug, apiSlug)))
    .where(eq(portals.slug, portalSlug))
    .get();
  if (!head) throw new ApiError(404, "not-found", `no portal "${portalSlug}"`);
  return head.api && head.api.liveVersionId ? { portal: head.portal, api: head.api } : { portal: head.portal };
}

/**
 * The rest of a reference page's D1 facts once portal and API are known ({@link loadReaderHead}), in one batch:
 * the portal's APIs, the API's versions, the version (`label` undefined = the live one) and, given
 * `operationSlug`, the operation row.
 * @throws ApiError 404 for an unknown version.
 */
export async function loadReaderRest(
  db: Db,
  head: { portal: PortalRow; api: ApiRow },
  label?: string,
  operationSlug?: string,
): Promise<ReaderContext & { operation?: OperationRow }> {
  const { portal, api } = head;
  const versionId =
    label === undefined
      ? sql`${api.liveVersionId}`
      : sql`(select max(id) from versions where api_id = ${api.id} and label = ${label} and status = 'published')`;
  const [apiRows, versionRows, versionRow, operationRows] = await db.batch([
    apisQuery(db, portal.id),
    publishedVersionsQuery(db, api.id),
    db.select().from(versions).where(sql`${versions.id} = ${versionId}`),
    db
      .select()
      .from(operations)
      .where(and(sql`${operations.versionId} = ${versionId}`, eq(operations.slug, operationSlug ?? "")))
      .limit(operationSlug === undefined ? 0 : 1),
  ]);
  const version = versionRow[0];
  if (!version) throw new ApiError(404, "not-found", `no version "${label}" of "${api.slug}"`);
  return {
    portal,
    apis: apiRows.filter((a) => a.liveVersionId !== null),
    api,
    versions: versionRows,
    version,
    live: version.id === api.liveVersionId,
    operation: operationRows[0],
  };
}

/**
 * Resolves portal → API → version (`label` undefined = the live version) and, given `operationSlug`, the
 * operation row, in two D1 round trips: {@link loadReaderHead}, then {@link loadReaderRest}.
 * @throws ApiError 404 for an unknown portal, API or version, or an API with nothing published.
 */
export async function loadReaderContext(
  db: Db,
  portalSlug: string,
  apiSlug: string,
  label?: string,
  operationSlug?: string,
): Promise<ReaderContext & { operation?: OperationRow }> {
  const { portal, api } = await loadReaderHead(db, portalSlug, apiSlug);
  if (!api) throw new ApiError(404, "not-found", `no API reference "${apiSlug}" in this portal`);
  return loadReaderRest(db, { portal, api }, label, operationSlug);
}
