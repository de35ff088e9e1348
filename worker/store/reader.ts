/** @module What a reader page needs from D1, fetched together: portal, APIs, the API's versions, the version. */
import { readersServed } from "../workspace/plans";
import { ApiError } from "../http/errors";
import { and, eq, sql } from "drizzle-orm";
import { apis, portals, versions } from "../../schema";
import { apisQuery, publishedVersionsQuery, type ApiRow, type OperationRow, type VersionRow } from "./apis";
import type { Db } from "./db";
import { catalogFor, type CatalogEnv } from "./portal-catalog";
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

/**
 * Refuses reader pages of a portal whose organisation's trial ended more than 30 days ago without a plan
 * (worker/workspace/plans.ts); until then, and on any plan, readers are served. Nothing is deleted either way.
 * @throws ApiError 402 `portal-paused`.
 */
export function requireReadersServed(portal: PortalRow, now = new Date()): void {
  if (portal.organisationId !== null && !readersServed(portal, now)) {
    throw new ApiError(402, "portal-paused", "this portal is paused: its trial ended more than 30 days ago. Its owners can restore it by choosing a plan.");
  }
}

/** @throws ApiError 404 when the portal is unknown, 402 `portal-paused` (see {@link requireReadersServed}). */
export async function loadPortal(db: Db, portalSlug: string): Promise<PortalRow> {
  const portal = await findPortalBySlug(db, portalSlug);
  if (!portal) throw new ApiError(404, "not-found", `no portal "${portalSlug}"`);
  requireReadersServed(portal);
  return portal;
}

/**
 * The portal and API behind a reference URL, in one D1 round trip: `api` is undefined when the portal has no API of
 * that slug, or one with nothing published (the caller answers 404 once access is decided).
 * @throws ApiError 404 for an unknown portal.
 */
export async function loadReaderHead(db: Db, portalSlug: string, apiSlug: string, unpublished = false): Promise<{ portal: PortalRow; api?: ApiRow }> {
  const head = await db
    .select({ portal: portals, api: apis })
    .from(portals)
    .leftJoin(apis, and(eq(apis.portalId, portals.id), eq(apis.slug, apiSlug)))
    .where(eq(portals.slug, portalSlug))
    .get();
  if (!head) throw new ApiError(404, "not-found", `no portal "${portalSlug}"`);
  requireReadersServed(head.portal);
  // `unpublished`: an API without a live version too (a Git branch preview may hold its only version).
  return head.api && (head.api.liveVersionId || unpublished) ? { portal: head.portal, api: head.api } : { portal: head.portal };
}

/**
 * The rest of a reference page's facts once portal and API are known ({@link loadReaderHead}): one D1 batch for the
 * portal's APIs, the API's versions and the version (`label` undefined = the live one), and, given `operationSlug`,
 * one call to the portal's catalog for the operation row: beside the batch for the live version, after it for a
 * labelled one.
 * @throws ApiError 404 for an unknown version.
 */
export async function loadReaderRest(
  db: Db,
  env: CatalogEnv,
  head: { portal: PortalRow; api: ApiRow },
  label?: string,
  operationSlug?: string,
  preview?: { version: number; label: string; apis: ReadonlySet<string> },
): Promise<ReaderContext & { operation?: OperationRow }> {
  const { portal, api } = head;
  // A Git branch preview (docs/git.md) reads its own version of the API for the API's URL without a label and for
  // the preview version's label; other labels are the published ones.
  const pinned = preview && (label === undefined || label === preview.label) ? preview.version : undefined;
  const versionId =
    pinned !== undefined
      ? sql`${pinned}`
      : label === undefined
      ? sql`${api.liveVersionId}`
      : sql`(select max(id) from versions where api_id = ${api.id} and label = ${label} and status = 'published')`;
  const catalog = catalogFor(env, portal.id);
  const operationOf = (id: number) => (operationSlug === undefined ? Promise.resolve(null) : catalog.stub.operation(portal.id, id, operationSlug));
  const live = pinned !== undefined ? operationOf(pinned) : label === undefined && api.liveVersionId !== null ? operationOf(api.liveVersionId) : undefined;
  // Not left unhandled while the batch runs (it is awaited below).
  live?.catch(() => undefined);
  const [apiRows, versionRows, versionRow] = await db.batch([
    apisQuery(db, portal.id),
    publishedVersionsQuery(db, api.id),
    db.select().from(versions).where(sql`${versions.id} = ${versionId}`),
  ]);
  const version = versionRow[0];
  if (!version) throw new ApiError(404, "not-found", `no version "${label}" of "${api.slug}"`);
  const operation = await (live ?? operationOf(version.id));
  // In a preview, its version replaces the published one of the same label in the version list.
  const listed = pinned !== undefined ? [version, ...versionRows.filter((v) => v.label !== version.label)] : versionRows;
  return {
    portal,
    apis: apiRows.filter((a) => a.liveVersionId !== null || preview?.apis.has(a.slug)),
    api,
    versions: listed,
    version,
    live: version.id === api.liveVersionId,
    ...(operation ? { operation } : {}),
  };
}
