/**
 * @module Content releases in storage: stored pages packed in order into KV chunks of about 128 K characters
 * (immutable, content-addressed: `content/c/<sha256>`; one KV write per chunk keeps a 5,000-page release far below
 * KV's 1,000 operations per invocation, and a page read parses only its own slice),
 * assets and uploaded bundles in R2 (`content-assets/<sha256>`, `content-bundles/<sha256>`), rows in D1. A
 * release's rows and the live pointer are written in one D1 batch (a transaction), the pointer last, so readers
 * see the old release or the new one, never a mix.
 */
import { upgradeStoredConfig } from "../content/brand";
import type { CompiledRelease } from "../content/compile";
import { sha256 } from "../content/hash";
import { searchPointerStatements, type SearchPointerRow } from "./search";
import { catalogFor, liveOperationsOf, putPages, type CatalogEnv } from "./portal-catalog";
import type { ChangeType, ContentChecks, ContentConfig, GlossaryTerm, PageKind, PageMeta, StoredPage } from "../content/types";

const CHUNK_PREFIX = "content/c/";
const CHUNK_TARGET_CHARS = 128 * 1024;
const KV_WRITE_CONCURRENCY = 16;

/** Where a stored page is: its chunk's KV key and its UTF-16 offset and length in the chunk's text. */
export interface PageLocation {
  key: string;
  offset: number;
  length: number;
}

/** A release row as readers use it (JSON columns parsed). */
export interface ReleaseRow {
  id: number;
  digest: string;
  bundleSha256: string;
  config: ContentConfig;
  glossary: GlossaryTerm[];
  checks: ContentChecks;
  pages: number;
  steps: number;
  changelog: number;
  createdAt: string;
}

/** A page row (D1) with where its stored page is. */
export interface PageRow extends PageMeta {
  at: PageLocation;
}

export async function putBundle(bucket: R2Bucket, sha: string, body: Uint8Array): Promise<void> {
  await bucket.put(`content-bundles/${sha}`, body, { httpMetadata: { contentType: "application/octet-stream" } });
}

export async function getBundle(bucket: R2Bucket, sha: string): Promise<Uint8Array | undefined> {
  const obj = await bucket.get(`content-bundles/${sha}`);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : undefined;
}

/** Serialises every page, in order, into chunks; returns the chunks (with their content addresses) and each page's location. */
export async function packPages(release: CompiledRelease): Promise<{ chunks: { key: string; text: string }[]; at: PageLocation[] }> {
  const chunks: { key: string; text: string }[] = [];
  const pending: { parts: string[]; size: number; slots: number[] } = { parts: [], size: 0, slots: [] };
  const at: PageLocation[] = [];
  const flush = async () => {
    if (pending.parts.length === 0) return;
    const text = pending.parts.join("");
    const key = CHUNK_PREFIX + (await sha256(text));
    chunks.push({ key, text });
    for (const i of pending.slots) at[i].key = key;
    pending.parts = [];
    pending.size = 0;
    pending.slots = [];
  };
  for (let i = 0; i < release.pages.length; i++) {
    const json = JSON.stringify(release.pages[i].page);
    if (pending.size > 0 && pending.size + json.length > CHUNK_TARGET_CHARS) await flush();
    at[i] = { key: "", offset: pending.size, length: json.length };
    pending.parts.push(json);
    pending.size += json.length;
    pending.slots.push(i);
  }
  await flush();
  return { chunks, at };
}

/** Digest of a whole release: its page locations (chunks are content-addressed), page rows, assets, config, glossary. */
export async function releaseDigest(release: CompiledRelease, at: PageLocation[]): Promise<string> {
  const parts = release.pages.map((p, i) => JSON.stringify([at[i], p.meta]));
  parts.push(JSON.stringify(release.assets.map((a) => [a.path, a.sha256])), JSON.stringify(release.config), JSON.stringify(release.glossary));
  return sha256(parts.join("\n"));
}

/** Writes chunks with bounded concurrency (rewriting an existing content-addressed chunk writes the same bytes). */
export async function putChunks(kv: KVNamespace, chunks: { key: string; text: string }[]): Promise<void> {
  const queue = [...chunks];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) await kv.put(c.key, c.text);
  };
  await Promise.all(Array.from({ length: Math.min(KV_WRITE_CONCURRENCY, chunks.length) }, worker));
}

export async function putAssets(bucket: R2Bucket, release: CompiledRelease): Promise<void> {
  const seen = new Set<string>();
  await Promise.all(release.assets.filter((a) => !seen.has(a.sha256) && seen.add(a.sha256)).map((a) =>
    bucket.put(`content-assets/${a.sha256}`, a.data, { httpMetadata: { contentType: a.contentType } })));
}

export async function getAsset(bucket: R2Bucket, sha: string): Promise<R2ObjectBody | null> {
  return bucket.get(`content-assets/${sha}`);
}

/** A chunk's text, or undefined when absent. Chunks never change, so edge caching is safe. */
export async function getChunk(kv: KVNamespace, key: string): Promise<string | undefined> {
  return (await kv.get(key, { cacheTtl: 86400 })) ?? undefined;
}

/** The stored page at a location of a chunk's text. */
export function pageFromChunk(chunk: string, at: PageLocation): StoredPage {
  return JSON.parse(chunk.slice(at.offset, at.offset + at.length)) as StoredPage;
}

/** A content_releases row as D1 returns it. */
export interface ReleaseDbRow {
  id: number; digest: string; bundle_sha256: string; config: string; glossary: string; checks: string; pages: number; steps: number; changelog: number; created_at: string;
}

/** Parses a release row's JSON columns. */
export function releaseOf(r: ReleaseDbRow): ReleaseRow {
  return {
    id: r.id, digest: r.digest, bundleSha256: r.bundle_sha256, config: upgradeStoredConfig(JSON.parse(r.config)), glossary: JSON.parse(r.glossary), checks: JSON.parse(r.checks),
    pages: r.pages, steps: r.steps, changelog: r.changelog, createdAt: r.created_at,
  };
}

/** The portal's live release, or undefined when it has published no content. */
export async function liveRelease(db: D1Database, portalId: number): Promise<ReleaseRow | undefined> {
  const row = await db.prepare("SELECT r.* FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?").bind(portalId).first<ReleaseDbRow>();
  return row ? releaseOf(row) : undefined;
}

/** The live release (D1) and every page row of it (the portal's catalog). */
export async function liveReleaseWithPages(env: CatalogEnv & { DB: D1Database }, portalId: number): Promise<{ release: ReleaseRow; pages: PageRow[] } | undefined> {
  const release = await liveRelease(env.DB, portalId);
  if (!release) return undefined;
  return { release, pages: await releasePages(env, portalId, release.id) };
}

/** A release of the portal by id (a staged one too) and its page rows, or undefined. */
export async function releaseWithPages(env: CatalogEnv & { DB: D1Database }, portalId: number, releaseId: number): Promise<{ release: ReleaseRow; pages: PageRow[] } | undefined> {
  const row = await env.DB.prepare("SELECT * FROM content_releases WHERE id = ? AND portal_id = ?").bind(releaseId, portalId).first<ReleaseDbRow>();
  if (!row) return undefined;
  return { release: releaseOf(row), pages: await releasePages(env, portalId, releaseId) };
}

/** A release's page rows from the portal's catalog (store/portal-catalog.ts), in navigation order. */
export async function releasePages(env: CatalogEnv, portalId: number, releaseId: number): Promise<PageRow[]> {
  const rows = await catalogFor(env, portalId).stub.releasePages(portalId, releaseId);
  return (rows as unknown as PageDbRow[]).map(pageOf);
}

/** A content page row as stored (the catalog's `content_pages`, formerly D1's). */
export interface PageDbRow {
  kind: string; slug: string; locale: string; title: string; description: string | null; tags: string; labels: string; operations: string; position: number;
  file: string; chunk_key: string; slice_offset: number; slice_length: number; change_type: string | null; change_version: string | null; change_date: string | null; change_api: string | null;
}

/** Parses a page row's JSON columns. */
export function pageOf(r: PageDbRow): PageRow {
  return {
    kind: r.kind as PageKind, slug: r.slug, locale: r.locale, title: r.title, description: r.description ?? undefined, tags: JSON.parse(r.tags),
    labels: JSON.parse(r.labels), operations: JSON.parse(r.operations), order: r.position, file: r.file, at: { key: r.chunk_key, offset: r.slice_offset, length: r.slice_length },
    changelog: r.change_type ? { type: r.change_type as ChangeType, version: r.change_version!, date: r.change_date!, api: r.change_api ?? undefined } : undefined,
  };
}

/** The media type of an asset (by hash) of a release, or undefined when the release has no such asset. */
export async function releaseAssetType(db: D1Database, releaseId: number, sha: string): Promise<string | undefined> {
  const row = await db.prepare("SELECT content_type AS t FROM content_assets WHERE release_id = ? AND sha256 = ? LIMIT 1").bind(releaseId, sha).first<{ t: string }>();
  return row?.t;
}

/**
 * Deletes the portal's previews that expired by `now` (ISO time) with their release rows and assets, as
 * statements for the caller's batch (their page rows are dropped from the catalog first: {@link commitRelease}).
 * Their KV chunks and R2 assets stay: both are content-addressed and may be shared with a live or later release.
 */
function expiredPreviewStatements(db: D1Database, portalId: number, now: string): D1PreparedStatement[] {
  const expired = "SELECT release_id FROM content_previews WHERE portal_id = ? AND expires_at <= ?";
  return [
    db.prepare(`DELETE FROM content_assets WHERE release_id IN (${expired})`).bind(portalId, now),
    // The preview rows reference their releases: mark the releases, drop the previews, then the marked releases.
    db.prepare(`UPDATE content_releases SET status = 'expired' WHERE id IN (${expired})`).bind(portalId, now),
    db.prepare("DELETE FROM content_previews WHERE portal_id = ? AND expires_at <= ?").bind(portalId, now),
    db.prepare("DELETE FROM content_releases WHERE portal_id = ? AND status = 'expired'").bind(portalId),
  ];
}

/**
 * Records a release and makes it live: the release row first (its id), then its page rows in the portal's catalog
 * (never read before the release is live or previewed: readers find release ids in D1 first), then assets, the
 * published status and the live pointer in one D1 batch, so a failure leaves the live release as it was.
 * With `search`, the portal's live search index row is written in the same batch.
 * With `preview`, the release is recorded with a preview token instead and the live pointer is not touched; with
 * `staged`, it is recorded as "staged" for a Git release's single flip ({@link releaseLiveStatements}).
 * Either way the same batch deletes the portal's expired previews, so dry runs never pile up rows.
 */
export async function commitRelease(
  env: CatalogEnv & { DB: D1Database }, portalId: number, bundleSha: string, digest: string, release: CompiledRelease, at: PageLocation[], now: string,
  preview?: { tokenHash: string; expiresAt: string },
  search?: SearchPointerRow,
  staged = false,
): Promise<number> {
  const db = env.DB;
  const count = (k: PageKind) => release.pages.filter((p) => p.meta.kind === k).length;
  const inserted = await db.prepare(
    "INSERT INTO content_releases (portal_id, digest, bundle_sha256, config, glossary, checks, pages, steps, changelog, status, created_at) VALUES (?,?,?,?,?,?,?,?,?,'pending',?) RETURNING id",
  ).bind(portalId, digest, bundleSha, JSON.stringify(release.config), JSON.stringify(release.glossary), JSON.stringify(release.checks), count("guide"), count("step"), count("changelog"), now)
    .first<{ id: number }>();
  const id = inserted!.id;
  const rows = release.pages.map((p, i) => {
    const m = p.meta;
    return [m.kind, m.slug, m.locale, m.title, m.description ?? null, JSON.stringify(m.tags), JSON.stringify(m.labels), JSON.stringify(m.operations),
      Math.min(m.order, 1e9), m.file, at[i].key, at[i].offset, at[i].length, m.changelog?.type ?? null, m.changelog?.version ?? null, m.changelog?.date ?? null, m.changelog?.api ?? null];
  });
  // Rows in PAGE_COLUMNS order (the catalog's content_pages).
  const catalog = catalogFor(env, portalId);
  await putPages(catalog, id, rows);
  const { results: expired } = await db.prepare("SELECT release_id AS id FROM content_previews WHERE portal_id = ? AND expires_at <= ?").bind(portalId, now).all<{ id: number }>();
  if (expired.length) await catalog.stub.dropReleasePages(portalId, expired.map((r) => r.id));
  const statements: D1PreparedStatement[] = expiredPreviewStatements(db, portalId, now);
  if (release.assets.length > 0) {
    statements.push(db.prepare(
      "INSERT INTO content_assets (release_id, path, sha256, content_type) SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)",
    ).bind(id, JSON.stringify(release.assets.map((a) => [a.path, a.sha256, a.contentType]))));
  }
  if (preview) {
    // A preview is recorded like a release but never becomes live: only its link reaches it.
    statements.push(
      db.prepare("UPDATE content_releases SET status = 'preview' WHERE id = ?").bind(id),
      db.prepare("INSERT INTO content_previews (portal_id, release_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?)").bind(portalId, id, preview.tokenHash, preview.expiresAt, now),
    );
    await db.batch(statements);
    return id;
  }
  if (staged) {
    // A part of a Git release: made live with the release's definitions in one batch (worker/git/sync.ts).
    statements.push(db.prepare("UPDATE content_releases SET status = 'staged' WHERE id = ?").bind(id));
    await db.batch(statements);
    return id;
  }
  statements.push(
    db.prepare("UPDATE content_releases SET status = 'published' WHERE id = ?").bind(id),
    db.prepare("INSERT INTO content_live (portal_id, release_id, updated_at) VALUES (?, ?, ?) ON CONFLICT(portal_id) DO UPDATE SET release_id = excluded.release_id, updated_at = excluded.updated_at")
      .bind(portalId, id, now),
  );
  // The portal's search index (built for this release) flips with it.
  if (search) statements.push(...searchPointerStatements(db, search));
  await db.batch(statements);
  return id;
}

/** The statements that make a staged release live (a Git release's flip batch, worker/git/sync.ts). */
export function releaseLiveStatements(db: D1Database, portalId: number, releaseId: number, now: string): D1PreparedStatement[] {
  return [
    db.prepare("UPDATE content_releases SET status = 'published' WHERE id = ? AND status = 'staged'").bind(releaseId),
    db.prepare("INSERT INTO content_live (portal_id, release_id, updated_at) VALUES (?, ?, ?) ON CONFLICT(portal_id) DO UPDATE SET release_id = excluded.release_id, updated_at = excluded.updated_at")
      .bind(portalId, releaseId, now),
  ];
}

/** Live operations of every API of the portal, for `op:` links and the undocumented-operations check (from the portal's catalog). */
export async function liveOperationIndex(env: CatalogEnv & { DB: D1Database }, portalId: number): Promise<Map<string, { slug: string; method: string; path: string; operationId: string | null }[]>> {
  const results = await liveOperationsOf(env, portalId, { kind: "operation" });
  const index = new Map<string, { slug: string; method: string; path: string; operationId: string | null }[]>();
  for (const r of results) {
    if (!index.has(r.api)) index.set(r.api, []);
    index.get(r.api)!.push({ slug: r.slug, method: r.method, path: r.path, operationId: r.operationId });
  }
  return index;
}

/** The live release's id and default locale (what the catalog's linking queries take), or undefined without content. */
async function liveReleaseLocale(db: D1Database, portalId: number): Promise<{ id: number; locale: string } | undefined> {
  const row = await db.prepare("SELECT r.id, json_extract(r.config, '$.locales[0]') AS locale FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?")
    .bind(portalId).first<{ id: number; locale: string | null }>();
  return row && row.locale !== null ? { id: row.id, locale: row.locale } : undefined;
}

/** Pages of the portal's live release (default locale, guides and steps) whose operation links include `key` (`api#slug`). */
export async function linkingPages(env: CatalogEnv & { DB: D1Database }, portalId: number, key: string): Promise<{ kind: string; slug: string; title: string; locale: string; labels: string[] }[]> {
  const live = await liveReleaseLocale(env.DB, portalId);
  if (!live) return [];
  const results = await catalogFor(env, portalId).stub.linkingPages(portalId, live.id, live.locale, key);
  return results.map((r) => ({ ...r, labels: JSON.parse(r.labels) as string[] }));
}

/**
 * The guides and code steps (default locale) of the live release linking to any operation of `api`, one row per
 * page and operation key (`api#slug`), in navigation order; at most `limit` rows (the single-page reference's
 * per-operation "Guides" lists).
 */
export async function linkingPagesForApi(env: CatalogEnv & { DB: D1Database }, portalId: number, api: string, limit = 2000): Promise<{ kind: string; slug: string; title: string; locale: string; labels: string[]; operation: string }[]> {
  const live = await liveReleaseLocale(env.DB, portalId);
  if (!live) return [];
  const results = await catalogFor(env, portalId).stub.linkingPagesForApi(portalId, live.id, live.locale, api, limit);
  return results.map((r) => ({ ...r, labels: JSON.parse(r.labels) as string[] }));
}

/**
 * Files of the portal's live release by bundle path (what PATCH /v1/portal's `brand` names): path → sha256 and
 * media type, for the paths asked only. Empty without a live release.
 */
export async function liveAssetsByPath(db: D1Database, portalId: number, paths: string[]): Promise<Map<string, { sha256: string; contentType: string }>> {
  const out = new Map<string, { sha256: string; contentType: string }>();
  if (!paths.length) return out;
  const rows = await db.prepare(
    "SELECT a.path, a.sha256, a.content_type AS contentType FROM content_live l JOIN content_assets a ON a.release_id = l.release_id WHERE l.portal_id = ? AND a.path IN (SELECT value FROM json_each(?))",
  ).bind(portalId, JSON.stringify(paths)).all<{ path: string; sha256: string; contentType: string }>();
  for (const r of rows.results) out.set(r.path, { sha256: r.sha256, contentType: r.contentType });
  return out;
}

/**
 * The image files (SVG, PNG, ICO) of the portal's live release, by bundle path with their sha256: what the dashboard
 * offers as logo and favicon (PATCH /v1/portal's `brand` names them by path). At most `limit`, by path.
 */
export async function liveImages(db: D1Database, portalId: number, limit = 200): Promise<Array<{ path: string; sha256: string }>> {
  const rows = await db.prepare(
    "SELECT a.path, a.sha256 FROM content_live l JOIN content_assets a ON a.release_id = l.release_id WHERE l.portal_id = ? AND (lower(a.path) LIKE '%.svg' OR lower(a.path) LIKE '%.png' OR lower(a.path) LIKE '%.ico') ORDER BY a.path LIMIT ?",
  ).bind(portalId, limit).all<{ path: string; sha256: string }>();
  return rows.results;
}
