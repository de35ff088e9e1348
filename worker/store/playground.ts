/** @module D1 side of the playground proxy: the portal's `playground` settings and the operation a call is for. */
import type { OAuthSchemeSettings } from "../content/types";

/** portico.yaml's `playground` block of the live content release (worker/content/config.ts); defaults when absent. */
export interface PlaygroundSettings {
  allowHosts: string[];
  allowPrivateHosts: boolean;
  /** `playground.oauth`: per security scheme name, the portal's client id and URL overrides (already validated). */
  oauth: Record<string, OAuthSchemeSettings>;
}

/** The live release's `playground` block, one query; none (no release, no block, bad JSON) → empty defaults. */
export async function loadPlaygroundSettings(db: D1Database, portalId: number): Promise<PlaygroundSettings> {
  const row = await db.prepare(
    `SELECT json_extract(r.config, '$.playground') AS playground FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?`,
  ).bind(portalId).first<{ playground: string | null }>();
  let parsed: Partial<PlaygroundSettings> = {};
  try {
    parsed = row?.playground ? (JSON.parse(row.playground) as Partial<PlaygroundSettings>) : {};
  } catch {
    // kept empty: nothing extra is allowed
  }
  return {
    allowHosts: Array.isArray(parsed.allowHosts) ? parsed.allowHosts.filter((h): h is string => typeof h === "string") : [],
    allowPrivateHosts: parsed.allowPrivateHosts === true,
    // Validated when the release was published (content/config.ts); only the shape is re-checked here.
    oauth: parsed.oauth && typeof parsed.oauth === "object" && !Array.isArray(parsed.oauth) ? parsed.oauth : {},
  };
}

/** The operation row a call names: its method and where its slice is. */
export interface PlaygroundOperation {
  method: string;
  chunk: number;
  offset: number;
  length: number;
}

/** An operation of a version by `operationId` (or, for operations without one, by its page slug); undefined if none. */
export async function findPlaygroundOperation(db: D1Database, versionId: number, operationId: string): Promise<PlaygroundOperation | undefined> {
  const row = await db.prepare(
    `SELECT method, chunk, slice_offset AS "offset", slice_length AS length FROM operations
     WHERE version_id = ?1 AND (operation_id = ?2 OR (operation_id IS NULL AND slug = ?2)) ORDER BY position LIMIT 1`,
  ).bind(versionId, operationId).first<PlaygroundOperation>();
  return row ?? undefined;
}
