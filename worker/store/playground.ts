/**
 * @module D1 side of the playground proxy: everything a call needs before it goes out, in one D1 round trip and one
 * call to the portal's catalog for the operation ({@link loadPlaygroundCall}), with the live release's portico.yaml parts cached per isolate by release id (a
 * published release never changes); the portal's `playground` settings alone, for the OAuth routes; and the
 * rate limits on the Workers Rate Limiting bindings ({@link spendPlaygroundCall}).
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { PLAYGROUND_WINDOW_MS } from "../access/rate-limit";
import { apis, contentLive, portalAccess, portals, versions } from "../../schema";
import type { OAuthSchemeSettings } from "../content/types";
import type { Db } from "./db";
import { catalogFor, type CatalogEnv } from "./portal-catalog";
import type { PortalRow } from "./portals";
import { accessFromRow, type PortalAccess } from "./readers";

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
  return parsePlaygroundSettings(row?.playground ?? null);
}

/** A `playground` block's JSON text as settings; null or bad JSON → empty defaults (nothing extra allowed). */
function parsePlaygroundSettings(text: string | null): PlaygroundSettings {
  let parsed: Partial<PlaygroundSettings> = {};
  try {
    parsed = text ? (JSON.parse(text) as Partial<PlaygroundSettings>) : {};
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

/** What a live content release's portico.yaml gives a playground call (JSON text as stored; parsed settings). */
interface ReleaseParts {
  yamlAccess: string | null;
  yamlAudiences: string | null;
  navigation: string | null;
  settings: PlaygroundSettings;
}

/** Release id → its parts. Release ids are AUTOINCREMENT (never reused) and a published release is immutable. */
const RELEASES = new Map<number, ReleaseParts>();
const MAX_RELEASES = 64;

async function releaseParts(db: D1Database, releaseId: number | null): Promise<ReleaseParts> {
  if (releaseId === null) return { yamlAccess: null, yamlAudiences: null, navigation: null, settings: parsePlaygroundSettings(null) };
  const hit = RELEASES.get(releaseId);
  if (hit) return hit;
  const row = await db.prepare(
    `SELECT json_extract(config, '$.access') AS yamlAccess, json_extract(config, '$.audiences') AS yamlAudiences,
       json_extract(config, '$.navigation') AS navigation, json_extract(config, '$.playground') AS playground
     FROM content_releases WHERE id = ?`,
  ).bind(releaseId).first<{ yamlAccess: string | null; yamlAudiences: string | null; navigation: string | null; playground: string | null }>();
  const parts: ReleaseParts = {
    yamlAccess: row?.yamlAccess ?? null, yamlAudiences: row?.yamlAudiences ?? null, navigation: row?.navigation ?? null,
    settings: parsePlaygroundSettings(row?.playground ?? null),
  };
  // Only a row that exists is kept (a live pointer names a published release; a missing one is not cached).
  if (row) {
    if (RELEASES.size >= MAX_RELEASES) RELEASES.delete(RELEASES.keys().next().value!);
    RELEASES.set(releaseId, parts);
  }
  return parts;
}

/**
 * What `POST /playground/send` checks before a call goes out. `api`, `version` and `operation` are undefined when
 * missing (an API with nothing published counts as missing), so the route can answer a gated API's 404 first.
 */
export interface PlaygroundCall {
  portal: PortalRow;
  access: PortalAccess;
  settings: PlaygroundSettings;
  api?: { id: number };
  /** The newest published row of the asked label. */
  version?: { id: number; label: string; modelKey: string };
  operation?: PlaygroundOperation;
}

/**
 * Portal, the reader's access inputs (the API-set access row and the live release pointer), the API, the newest
 * published version of `label` and the operation named `operationId` (by `operationId`, or for an operation without one by its page slug;
 * the first in document order; `null`: none asked), in ONE D1 statement, then the operation's row from the portal's
 * catalog (store/portal-catalog.ts). The live release's portico.yaml parts come from the per-isolate cache, so a
 * second round trip happens only the first time an isolate meets a release.
 * @returns undefined when no portal has that slug.
 */
export async function loadPlaygroundCall(
  db: Db,
  d1: D1Database,
  catalogs: CatalogEnv,
  portalSlug: string,
  apiSlug: string,
  label: string,
  operationId: string | null,
): Promise<PlaygroundCall | undefined> {
  // Unqualified names inside each subquery are its own table's; the qualified ones are the outer row's.
  const row = await db
    .select({
      portal: portals,
      settings: portalAccess.settings, passwordHash: portalAccess.passwordHash, jwtSecret: portalAccess.jwtSecret,
      releaseId: contentLive.releaseId,
      apiId: apis.id,
      versionId: versions.id, versionLabel: versions.label, modelKey: versions.modelKey,
    })
    .from(portals)
    .leftJoin(portalAccess, eq(portalAccess.portalId, portals.id))
    .leftJoin(contentLive, eq(contentLive.portalId, portals.id))
    .leftJoin(apis, and(eq(apis.portalId, portals.id), eq(apis.slug, apiSlug), isNotNull(apis.liveVersionId)))
    .leftJoin(versions, sql`${versions.id} = (select max(id) from versions where api_id = ${apis.id} and label = ${label} and status = 'published')`)
    .where(eq(portals.slug, portalSlug))
    .get();
  if (!row) return undefined;
  // The operation from the portal's catalog (issue 37), beside the release's parts (cached per isolate: mostly no I/O).
  const [parts, op] = await Promise.all([
    releaseParts(d1, row.releaseId),
    operationId !== null && row.versionId !== null ? catalogFor(catalogs, row.portal.id).stub.operationById(row.portal.id, row.versionId, operationId) : null,
  ]);
  return {
    portal: row.portal,
    access: accessFromRow({ sessionVersion: row.portal.sessionVersion, settings: row.settings, passwordHash: row.passwordHash, jwtSecret: row.jwtSecret, yamlAccess: parts.yamlAccess, yamlAudiences: parts.yamlAudiences, navigation: parts.navigation }),
    settings: parts.settings,
    ...(row.apiId !== null ? { api: { id: row.apiId } } : {}),
    ...(row.versionId !== null && row.versionLabel !== null && row.modelKey !== null ? { version: { id: row.versionId, label: row.versionLabel, modelKey: row.modelKey } } : {}),
    ...(op ? { operation: { method: op.method, chunk: op.chunk, offset: op.sliceOffset, length: op.sliceLength } } : {}),
  };
}

/** The two Rate Limiting bindings (https://developers.cloudflare.com/workers/runtime-apis/bindings/rate-limit/). */
export interface PlaygroundLimiters {
  PLAYGROUND_READER_LIMIT: RateLimit;
  PLAYGROUND_PORTAL_LIMIT: RateLimit;
}

/** Reader keys the reader's limiter refused, with the end of that window (ms), per isolate; bounded. */
const REFUSED = new Map<string, number>();
const MAX_REFUSED = 1024;

/**
 * Spends one playground call of `reader` (`reader:<id>` or `ip:<address>`) on `portal`; false when the reader's
 * or the portal's limit for this window is reached. Both limiters are asked at once (one wait, not two); so that
 * one reader over its limit cannot use up the portal's quota for everyone else, a reader the reader's limiter
 * refused is refused by this isolate without asking either limiter again until the minute ends (at most one
 * portal call spent per refused reader, window and isolate). Keys carry the portal's id and slug. In production
 * the counts are per Cloudflare location and approximate (the binding's own design: no round trip to a central
 * store); locally miniflare keeps exact counts in fixed windows aligned to the minute.
 */
export async function spendPlaygroundCall(env: PlaygroundLimiters, portal: { id: number; slug: string }, reader: string): Promise<boolean> {
  const key = `${portal.id}:${portal.slug}`;
  const readerKey = `${key}|${reader}`;
  const now = Date.now();
  const until = REFUSED.get(readerKey);
  if (until !== undefined) {
    if (until > now) return false;
    REFUSED.delete(readerKey);
  }
  const [own, all] = await Promise.all([env.PLAYGROUND_READER_LIMIT.limit({ key: readerKey }), env.PLAYGROUND_PORTAL_LIMIT.limit({ key })]);
  if (!own.success) {
    if (REFUSED.size >= MAX_REFUSED) REFUSED.delete(REFUSED.keys().next().value!);
    REFUSED.set(readerKey, (Math.floor(now / PLAYGROUND_WINDOW_MS) + 1) * PLAYGROUND_WINDOW_MS);
  }
  return own.success && all.success;
}
