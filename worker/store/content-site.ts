/**
 * @module What a content reader page needs from D1 and KV. Portal, live release id and live APIs come in one
 * batch; a release's rows, chunks and stored pages are immutable, so they are cached per isolate by release id
 * and chunk key (bounded), never per reader: filtering for the reader happens on every request (worker/content/site.ts).
 */
import { ApiError } from "../http/errors";
import { readersServed } from "../workspace/plans";
import type { StoredPage } from "../content/types";
import { getChunk, pageFromChunk, releaseOf, releasePages, type PageLocation, type PageRow, type ReleaseDbRow, type ReleaseRow } from "./content";
import type { CatalogEnv } from "./portal-catalog";
import { BoundedCache } from "../lib/bounded-cache";
import { asc, eq } from "drizzle-orm";
import { apis, contentLive, versions } from "../../schema";
import type { Db } from "./db";

export interface SiteApiRow {
  slug: string;
  title: string;
  layout: string;
  liveLabel: string;
}

/** The portal's row as content pages need it: identity plus the settings that shape URLs and headers. */
export interface PortalHead {
  id: number;
  /** The owning organisation's plan as mirrored on the portal row (worker/workspace/plans.ts); absent: unmanaged. */
  owner?: { plan: string; trialEndsAt: string | null };
  slug: string;
  name: string;
  /** Configured public origin setting, or null. */
  origin: string | null;
  /** The active custom hostname (reader URLs without `/p/{slug}`), or null. */
  hostname: string | null;
  /** JSON array of origins allowed to frame pages. */
  embedOrigins: string;
  externalImages: boolean;
  /** JSON of the brand set through PATCH /v1/portal (store/portals.ts `portalBrand`), or null. */
  brand: string | null;
}

export interface ContentSiteData {
  portal: PortalHead;
  release?: ReleaseRow;
  pages: PageRow[];
  apis: SiteApiRow[];
}

function portalOf(row: PortalHead & { organisationId?: number | null; plan?: string; trialEndsAt?: string | null }): PortalHead {
  // D1 returns SQLite booleans as 0/1.
  const owner = row.organisationId != null ? { owner: { plan: row.plan ?? "trial", trialEndsAt: row.trialEndsAt ?? null } } : {};
  return { id: row.id, slug: row.slug, name: row.name, origin: row.origin, hostname: row.hostname ?? null, embedOrigins: row.embedOrigins, externalImages: Boolean(row.externalImages), brand: row.brand ?? null, ...owner };
}

/** Releases, pages and chunks are immutable: kept per isolate, least recently used first out. */
const RELEASES = new BoundedCache<number, { release: ReleaseRow; pages: PageRow[] }>({ maxEntries: 16 });
const PAGES = new BoundedCache<string, StoredPage>({ maxEntries: 512 });
/** Chunks kept per isolate: 64 × 128 K characters at most, about 16 MB of the isolate's 128 MB. */
const CHUNKS = new BoundedCache<string, string>({ maxEntries: 64 });

/** What the content site reads: D1, and the portal's catalog (page rows). */
export type SiteEnv = CatalogEnv & { DB: D1Database };

/** Portal, live release (with page rows: the portal's catalog) and live APIs; undefined when the portal does not exist. */
export async function loadContentSite(env: SiteEnv, portalSlug: string): Promise<ContentSiteData | undefined> {
  const db = env.DB;
  const [head, apis] = await db.batch([
    db.prepare("SELECT p.id, p.slug, p.name, p.origin, p.hostname, p.embed_origins AS embedOrigins, p.external_images AS externalImages, p.brand, p.organisation_id AS organisationId, p.plan, p.trial_ends_at AS trialEndsAt, l.release_id AS releaseId FROM portals p LEFT JOIN content_live l ON l.portal_id = p.id WHERE p.slug = ?").bind(portalSlug),
    db.prepare("SELECT a.slug, a.title, a.layout, v.label AS liveLabel FROM portals p JOIN apis a ON a.portal_id = p.id JOIN versions v ON v.id = a.live_version_id WHERE p.slug = ? ORDER BY a.slug").bind(portalSlug),
  ]);
  const portal = (head.results as (PortalHead & { releaseId: number | null })[])[0];
  if (!portal) return undefined;
  return contentSiteOf(env, portal, portal.releaseId, apis.results as unknown as SiteApiRow[]);
}

/**
 * The two queries of {@link loadContentSite} for a portal whose row is already read (a reference page's head):
 * its live release id (no row: none) and its live APIs, as drizzle queries for the caller's own D1 batch; the
 * answers go to {@link contentSiteOf}.
 */
export function contentSiteQueries(db: Db, portalId: number) {
  return [
    db.select({ releaseId: contentLive.releaseId }).from(contentLive).where(eq(contentLive.portalId, portalId)),
    db.select({ slug: apis.slug, title: apis.title, layout: apis.layout, liveLabel: versions.label })
      .from(apis).innerJoin(versions, eq(versions.id, apis.liveVersionId)).where(eq(apis.portalId, portalId)).orderBy(asc(apis.slug)),
  ] as const;
}

/**
 * A portal's content site from its row, live release id and live APIs (the release's rows read once per isolate).
 * @throws ApiError 402 `portal-paused` (the trial ended more than 30 days ago without a plan).
 */
export async function contentSiteOf(
  env: SiteEnv,
  row: PortalHead & { organisationId?: number | null; plan?: string; trialEndsAt?: string | null },
  releaseId: number | null | undefined,
  liveApis: SiteApiRow[],
): Promise<ContentSiteData> {
  const owned = portalOf(row).owner;
  // Reader pages pause 30 days after a trial ended without a plan (nothing is deleted).
  if (owned && !readersServed(owned)) throw new ApiError(402, "portal-paused", "this portal is paused: its trial ended more than 30 days ago. Its owners can restore it by choosing a plan.");
  const data: ContentSiteData = { portal: portalOf(row), pages: [], apis: liveApis };
  if (releaseId === null || releaseId === undefined) return data;
  const cached = RELEASES.get(releaseId) ?? RELEASES.set(releaseId, await loadRelease(env, row.id, releaseId));
  return { ...data, release: cached.release, pages: cached.pages };
}

/**
 * Like {@link loadContentSite}, for a dry run's preview: the release a preview token (by its SHA-256) names, if the
 * token belongs to this portal and has not expired.
 */
export async function loadPreviewSite(env: SiteEnv, portalSlug: string, tokenHash: string, now: string): Promise<ContentSiteData | undefined> {
  const db = env.DB;
  const [head, apis] = await db.batch([
    db.prepare("SELECT p.id, p.slug, p.name, p.origin, p.hostname, p.embed_origins AS embedOrigins, p.external_images AS externalImages, p.brand, v.release_id AS releaseId FROM portals p JOIN content_previews v ON v.portal_id = p.id WHERE p.slug = ? AND v.token_hash = ? AND v.expires_at > ?")
      .bind(portalSlug, tokenHash, now),
    db.prepare("SELECT a.slug, a.title, a.layout, v.label AS liveLabel FROM portals p JOIN apis a ON a.portal_id = p.id JOIN versions v ON v.id = a.live_version_id WHERE p.slug = ? ORDER BY a.slug").bind(portalSlug),
  ]);
  const portal = (head.results as (PortalHead & { releaseId: number })[])[0];
  if (!portal) return undefined;
  const cached = RELEASES.get(portal.releaseId) ?? RELEASES.set(portal.releaseId, await loadRelease(env, portal.id, portal.releaseId));
  return { portal: portalOf(portal), apis: apis.results as unknown as SiteApiRow[], release: cached.release, pages: cached.pages };
}

async function loadRelease(env: SiteEnv, portalId: number, id: number): Promise<{ release: ReleaseRow; pages: PageRow[] }> {
  const [rel, pages] = await Promise.all([env.DB.prepare("SELECT * FROM content_releases WHERE id = ?").bind(id).first<ReleaseDbRow>(), releasePages(env, portalId, id)]);
  return { release: releaseOf(rel!), pages };
}

/** A stored page by location (chunks and pages are immutable: both cached per isolate, bounded). */
export async function storedPage(kv: KVNamespace, at: PageLocation): Promise<StoredPage | undefined> {
  const id = `${at.key}@${at.offset}`;
  const hit = PAGES.get(id);
  if (hit) return hit;
  let chunk = CHUNKS.get(at.key);
  if (chunk === undefined) {
    chunk = await getChunk(kv, at.key);
    if (chunk === undefined) return undefined;
    CHUNKS.set(at.key, chunk);
  }
  return PAGES.set(id, pageFromChunk(chunk, at));
}

const DEFAULTS = new BoundedCache<number, Record<string, string>>({ maxEntries: 16 });

/**
 * The `{{name}}` defaults of a portal's live content release (portico.yaml `variables`), `{}` without one.
 * Releases are immutable, so each release's defaults are read once per isolate (one small D1 query a call).
 */
export async function liveVariableDefaults(db: D1Database, portalId: number): Promise<Record<string, string>> {
  const row = await db.prepare("SELECT r.id, r.config FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?")
    .bind(portalId).first<{ id: number; config: string }>();
  if (!row) return {};
  const known = DEFAULTS.get(row.id);
  if (known) return known;
  const variables = (JSON.parse(row.config) as { variables?: Record<string, { default?: string }> }).variables ?? {};
  const defaults = Object.fromEntries(Object.entries(variables).flatMap(([k, v]) => (typeof v?.default === "string" ? [[k, v.default]] : [])));
  return DEFAULTS.set(row.id, defaults);
}
