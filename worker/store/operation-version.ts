/**
 * @module The API and version an MCP `get_operation` reads (worker/mcp/knowledge.ts), in one D1 round trip: the
 * portal (its paused state checked), the API by slug and the live version or the published one labelled `label`.
 * The reference pages' `loadReaderHead` + `loadReaderRest` take two and also list the portal's APIs and the API's
 * versions, which an operation as JSON does not show.
 */
import { and, eq, sql } from "drizzle-orm";
import { apis, portals, versions } from "../../schema";
import type { ApiRow, VersionRow } from "./apis";
import type { Db } from "./db";
import type { PortalRow } from "./portals";
import { requireReadersServed } from "./reader";

/**
 * The portal, its API `apiSlug` and that API's version `label` (published), or the live version when `label` is
 * undefined; undefined when the API is unknown, has no live version, or has no such version.
 * @throws ApiError 404 for an unknown portal, 402 `portal-paused` (store/reader.ts requireReadersServed).
 */
export async function loadOperationVersion(db: Db, portalSlug: string, apiSlug: string, label?: string): Promise<{ portal: PortalRow; api: ApiRow; version: VersionRow } | undefined> {
  const versionId = label === undefined
    ? sql`${apis.liveVersionId}`
    : sql`(select max(id) from versions where api_id = ${apis.id} and label = ${label} and status = 'published')`;
  const row = await db
    .select({ portal: portals, api: apis, version: versions })
    .from(portals)
    .leftJoin(apis, and(eq(apis.portalId, portals.id), eq(apis.slug, apiSlug)))
    .leftJoin(versions, sql`${versions.id} = ${versionId}`)
    .where(eq(portals.slug, portalSlug))
    .get();
  if (!row) return undefined;
  requireReadersServed(row.portal);
  if (!row.api || row.api.liveVersionId === null || !row.version) return undefined;
  return { portal: row.portal, api: row.api, version: row.version };
}
