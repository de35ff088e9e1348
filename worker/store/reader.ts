/** @module What a reader page needs from D1, fetched together: portal, APIs, the API's versions, the version. */
import { readersServed } from "../workspace/plans";
import { ApiError } from "../http/errors";
import { and, eq, sql } from "drizzle-orm";
import { apis, portals, versions } from "../../schema";
import { apisQuery, publishedVersionsQuery, type ApiRow, type OperationRow, type VersionRow } from "./apis";
import type { Db } from "./db";
import { catalogFor, type CatalogEnv } from "./portal-catalog";
import { findPortalBySlug, type PortalRow } from "./portals";
import { accessFromRow, accessQuery, type AccessRow, type PortalAccess } from "./readers";
import { contentSiteOf, contentSiteQueries, type ContentSiteData, type SiteApiRow, type SiteEnv } from "./content-site";
import { approvedEntriesFromRows, approvedEntriesOfApiQuery, type DraftRow } from "./changelog";
import { BoundedCache } from "../lib/bounded-cache";
import { preparedOnce, slot } from "./prepared";

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

/** The portal and API behind a reference URL ({@link loadReaderHead}). */
export interface ReaderHead {
  portal: PortalRow;
  api?: ApiRow;
  /** The label of the API's live version, when it has one. */
  liveLabel?: string;
}

/** A row of {@link headQueries}' second query: the API and its live version's label. */
type HeadApiRow = { api: ApiRow; liveLabel: string | null };

/**
 * The portal, the API of that slug in it and its live version's label, as two queries of single tables for a D1
 * batch (read by {@link headOf}): drizzle maps a batch's rows from D1's objects, whose keys are column names, so a
 * join of tables sharing column names (`id`, `slug`) would lose columns.
 */
function headQueries(db: Db, portalSlug: string, apiSlug: string) {
  return [
    db.select().from(portals).where(eq(portals.slug, portalSlug)),
    db
      .select({ api: apis, liveLabel: sql<string | null>`(select label from versions where id = ${apis.liveVersionId})` })
      .from(apis)
      .where(and(eq(apis.slug, apiSlug), sql`${apis.portalId} = (select id from portals where slug = ${portalSlug})`)),
  ] as const;
}

/**
 * The last head each published (portal, API) slug pair had in this isolate, by ids: it lets a reference page start
 * all its reads at once ({@link loadReaderRest}'s `recheck`), the head being read again in the same batch and the
 * reads redone when it moved. Ids and rows only, never a reader's state; at most 1,024 pairs.
 */
const HEAD_HINTS = new BoundedCache<string, Required<Pick<ReaderHead, "api">> & ReaderHead>({ maxEntries: 1024 });

const hintKey = (portalSlug: string, apiSlug: string) => `${portalSlug}\n${apiSlug}`;

/** The head this isolate last read for a published API of these slugs, if any (see {@link HEAD_HINTS}). */
export function readerHeadHint(portalSlug: string, apiSlug: string): (ReaderHead & { api: ApiRow }) | undefined {
  return HEAD_HINTS.get(hintKey(portalSlug, apiSlug));
}

/**
 * The portal and API behind a reference URL, in one D1 round trip: `api` is undefined when the portal has no API of
 * that slug, or one with nothing published (the caller answers 404 once access is decided).
 * @throws ApiError 404 for an unknown portal.
 */
export async function loadReaderHead(db: Db, portalSlug: string, apiSlug: string, unpublished = false): Promise<ReaderHead> {
  const [portalRows, apiRows] = await db.batch(headQueries(db, portalSlug, apiSlug));
  const head = headOf(portalRows, apiRows, unpublished);
  if (!head) throw new ApiError(404, "not-found", `no portal "${portalSlug}"`);
  requireReadersServed(head.portal);
  if (head.api?.liveVersionId) HEAD_HINTS.set(hintKey(portalSlug, apiSlug), head as ReaderHead & { api: ApiRow });
  return head;
}

/**
 * The head from {@link headQueries}' rows; undefined for an unknown portal. `unpublished`: an API without a live
 * version too (a Git branch preview may hold its only version); else such an API is left out.
 */
function headOf(portalRows: PortalRow[], apiRows: HeadApiRow[], unpublished: boolean): ReaderHead | undefined {
  const [portal] = portalRows;
  const [row] = apiRows;
  if (!portal) return undefined;
  return row && (row.api.liveVersionId || unpublished)
    ? { portal, api: row.api, ...(row.liveLabel !== null ? { liveLabel: row.liveLabel } : {}) }
    : { portal };
}

/**
 * Thrown by {@link loadReaderRest} with `recheck` when the head it started from is not the head read in its batch
 * (a publish, a rename, a deleted portal) or the version asked for is unknown: the caller reads the head afresh.
 */
export class StaleReaderHead extends Error {
  constructor() {
    super("the reader head moved");
  }
}

/** What a reference page (not a fragment or the Try-it spec) reads besides its reference, in the same D1 batch. */
export interface ReaderPageRows {
  /** The portal's access ({@link loadAccess}'s answer). */
  access: PortalAccess;
  /** The content site (chrome, variables' defaults, live release); the release's rows are read once per isolate. */
  site: Promise<ContentSiteData>;
  /** Approved changelog entries of the API up to the version shown, newest first (history badges). */
  approved: (DraftRow & { apiSlug: string })[];
}

/**
 * The rest of a reference page's facts once portal and API are known ({@link loadReaderHead}): one D1 batch for the
 * portal's APIs, the API's versions and the version (`label` undefined = the live one), and, given `operationSlug`,
 * one call to the portal's catalog for the operation row: beside the batch when the URL names the live version (no
 * label, or the live one's label) or a preview's, after it for another labelled one. With `page`, the same batch
 * also reads what the page itself needs ({@link ReaderPageRows}): one round trip instead of four. With `recheck` (the
 * URL's slugs, `head` being {@link readerHeadHint}'s), the batch reads the head too, so a warm page needs no round
 * trip before it: the answer carries the fresh portal and API rows.
 * @throws ApiError 404 for an unknown version; {@link StaleReaderHead} (`recheck` only) when the head moved or the
 * version is unknown.
 */
export async function loadReaderRest(
  db: Db,
  env: SiteEnv,
  head: { portal: PortalRow; api: ApiRow; liveLabel?: string },
  label?: string,
  operationSlug?: string,
  preview?: { version: number; label: string; apis: ReadonlySet<string> },
  page = false,
  recheck?: { portalSlug: string; apiSlug: string },
): Promise<ReaderContext & { operation?: OperationRow; page?: ReaderPageRows }> {
  let { portal, api } = head;
  // A Git branch preview (docs/git.md) reads its own version of the API for the API's URL without a label and for
  // the preview version's label; other labels are the published ones.
  const pinned = preview && (label === undefined || label === preview.label) ? preview.version : undefined;
  // The version shown: by id (a preview's, or the live one) or by label (its newest published row). Each shape's
  // queries are built once per isolate (store/prepared.ts) and given this page's values.
  const byLabel = pinned === undefined && label !== undefined;
  const shape = byLabel ? "label" : "id";
  const versionId = () =>
    byLabel ? sql`(select max(id) from versions where api_id = ${slot<number>("api")} and label = ${slot<string>("label")} and status = 'published')` : sql`${slot<number>("version")}`;
  const values = { portal: portal.id, api: api.id, version: pinned ?? api.liveVersionId, label: label ?? null, portalSlug: recheck?.portalSlug, apiSlug: recheck?.apiSlug };
  const q = <Q extends { prepare(): unknown }>(name: string, build: () => Q) => preparedOnce(db, `reader:${name}`, build, values);
  const catalog = catalogFor(env, portal.id);
  const operationOf = (id: number) => (operationSlug === undefined ? Promise.resolve(null) : catalog.stub.operation(portal.id, id, operationSlug));
  // The operation row is asked for beside the batch when the URL names the version it is likely in: a preview's, or
  // the live one (no label, or the live one's label, as most reader URLs do); the batch then confirms the version.
  const guess = pinned ?? ((label === undefined || label === head.liveLabel) && api.liveVersionId !== null ? api.liveVersionId : undefined);
  const early = guess !== undefined ? operationOf(guess) : undefined;
  // Not left unhandled while the batch runs (it is awaited below).
  early?.catch(() => undefined);
  const reference = [
    q("apis", () => apisQuery(db, slot("portal"))),
    q("versions", () => publishedVersionsQuery(db, slot("api"))),
    q(`version:${shape}`, () => db.select().from(versions).where(sql`${versions.id} = ${versionId()}`)),
  ] as const;
  const pageQueries = [
    q("access", () => accessQuery(db, slot("portal"))),
    q("site:live", () => contentSiteQueries(db, slot("portal"))[0]),
    q("site:apis", () => contentSiteQueries(db, slot("portal"))[1]),
    q(`approved:${shape}`, () => approvedEntriesOfApiQuery(db, slot("api"), versionId())),
  ] as const;
  const [apiRows, versionRows, versionRow, ...pageRows] = page
    ? recheck
      ? await db.batch([
          ...reference,
          ...pageQueries,
          q("head:portal", () => headQueries(db, slot("portalSlug"), slot("apiSlug"))[0]),
          q("head:api", () => headQueries(db, slot("portalSlug"), slot("apiSlug"))[1]),
        ])
      : await db.batch([...reference, ...pageQueries])
    : await db.batch(reference);
  const version = versionRow[0];
  if (recheck) {
    const apiRows = pageRows.pop() as HeadApiRow[];
    const fresh = headOf(pageRows.pop() as PortalRow[], apiRows, false);
    const moved = !fresh?.api || fresh.portal.id !== portal.id || fresh.api.id !== api.id || fresh.api.liveVersionId !== api.liveVersionId || fresh.liveLabel !== head.liveLabel;
    if (moved || !version) throw new StaleReaderHead();
    ({ portal, api } = fresh as ReaderHead & { api: ApiRow });
    HEAD_HINTS.set(hintKey(recheck.portalSlug, recheck.apiSlug), fresh as ReaderHead & { api: ApiRow });
  }
  if (!version) throw new ApiError(404, "not-found", `no version "${label}" of "${api.slug}"`);
  let rows: ReaderPageRows | undefined;
  if (page) {
    const [accessRows, liveRows, siteApis, approved] = pageRows as [AccessRow[], { releaseId: number }[], SiteApiRow[], { draft: DraftRow; apiSlug: string }[]];
    const site = contentSiteOf(env, portal, liveRows[0]?.releaseId, siteApis);
    site.catch(() => undefined); // the caller awaits it after its access checks
    rows = { access: accessFromRow(accessRows[0]), site, approved: approvedEntriesFromRows(approved) };
  }
  const operation = early && version.id === guess ? await early : await operationOf(version.id);
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
    ...(rows ? { page: rows } : {}),
  };
}
