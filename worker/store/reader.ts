/** @module What a reader page needs from D1, fetched together: portal, APIs, the API's versions, the version. */
import { ApiError } from "../http/errors";
import { findApi, findPublishedVersion, findVersionById, listApis, listPublishedVersions, type ApiRow, type VersionRow } from "./apis";
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
 * Resolves portal → API → version (`label` undefined = the live version).
 * @throws ApiError 404 for an unknown portal, API or version, or an API with nothing published.
 */
export async function loadReaderContext(db: Db, portalSlug: string, apiSlug: string, label?: string): Promise<ReaderContext> {
  const portal = await loadPortal(db, portalSlug);
  const api = await findApi(db, portal.id, apiSlug);
  if (!api || !api.liveVersionId) throw new ApiError(404, "not-found", `no API reference "${apiSlug}" in this portal`);
  const [apis, versions, version] = await Promise.all([
    listApis(db, portal.id),
    listPublishedVersions(db, api.id),
    label === undefined ? findVersionById(db, api.liveVersionId) : findPublishedVersion(db, api.id, label),
  ]);
  if (!version) throw new ApiError(404, "not-found", `no version "${label}" of "${apiSlug}"`);
  return { portal, apis: apis.filter((a) => a.liveVersionId !== null), api, versions, version, live: version.id === api.liveVersionId };
}
