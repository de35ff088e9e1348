/**
 * @module Content releases in storage: stored pages in KV (immutable, content-addressed: `content/p/<sha256>`),
 * assets and uploaded bundles in R2 (`content-assets/<sha256>`, `content-bundles/<sha256>`), rows in D1. A
 * release's rows and the live pointer are written in one D1 batch (a transaction), the pointer last, so readers
 * see the old release or the new one, never a mix.
 */
import type { CompiledRelease } from "../content/compile";
import { sha256 } from "../content/hash";
import type { ChangeType, ContentChecks, ContentConfig, GlossaryTerm, PageKind, PageMeta, StoredPage } from "../content/types";

const PAGE_PREFIX = "content/p/";
const KV_WRITE_CONCURRENCY = 32;

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

/** A page row (D1) with its KV key. */
export interface PageRow extends PageMeta {
  kvKey: string;
}

export async function putBundle(bucket: R2Bucket, sha: string, body: Uint8Array): Promise<void> {
  await bucket.put(`content-bundles/${sha}`, body, { httpMetadata: { contentType: "application/octet-stream" } });
}

export async function getBundle(bucket: R2Bucket, sha: string): Promise<Uint8Array | undefined> {
  const obj = await bucket.get(`content-bundles/${sha}`);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : undefined;
}

/** Serialises every page and computes its content address (no writes). */
export async function addressPages(release: CompiledRelease): Promise<{ key: string; json: string }[]> {
  return Promise.all(release.pages.map(async (p) => {
    const json = JSON.stringify(p.page);
    return { key: PAGE_PREFIX + (await sha256(json)), json };
  }));
}

/** Digest of a whole release: its page addresses, page rows, assets, config and glossary. */
export async function releaseDigest(release: CompiledRelease, keys: string[]): Promise<string> {
  const parts = release.pages.map((p, i) => JSON.stringify([keys[i], p.meta]));
  parts.push(JSON.stringify(release.assets.map((a) => [a.path, a.sha256])), JSON.stringify(release.config), JSON.stringify(release.glossary));
  return sha256(parts.join("\n"));
}

/** Writes pages (skipping none: KV puts of identical bytes are idempotent) with bounded concurrency. */
export async function putPages(kv: KVNamespace, pages: { key: string; json: string }[]): Promise<void> {
  const queue = [...pages];
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) await kv.put(p.key, p.json);
  };
  await Promise.all(Array.from({ length: Math.min(KV_WRITE_CONCURRENCY, pages.length) }, worker));
}

export async function putAssets(bucket: R2Bucket, release: CompiledRelease): Promise<void> {
  const seen = new Set<string>();
  await Promise.all(release.assets.filter((a) => !seen.has(a.sha256) && seen.add(a.sha256)).map((a) =>
    bucket.put(`content-assets/${a.sha256}`, a.data, { httpMetadata: { contentType: a.contentType } })));
}

export async function getAsset(bucket: R2Bucket, sha: string): Promise<R2ObjectBody | null> {
  return bucket.get(`content-assets/${sha}`);
}

export async function getStoredPage(kv: KVNamespace, key: string): Promise<StoredPage | undefined> {
  const page = await kv.get<StoredPage>(key, { type: "json", cacheTtl: 86400 });
  return page ?? undefined;
}

/** A content_releases row as D1 returns it. */
export interface ReleaseDbRow {
  id: number; digest: string; bundle_sha256: string; config: string; glossary: string; checks: string; pages: number; steps: number; changelog: number; created_at: string;
}

/** Parses a release row's JSON columns. */
export function releaseOf(r: ReleaseDbRow): ReleaseRow {
  return {
    id: r.id, digest: r.digest, bundleSha256: r.bundle_sha256, config: JSON.parse(r.config), glossary: JSON.parse(r.glossary), checks: JSON.parse(r.checks),
    pages: r.pages, steps: r.steps, changelog: r.changelog, createdAt: r.created_at,
  };
}

/** The portal's live release, or undefined when it has published no content. */
export async function liveRelease(db: D1Database, portalId: number): Promise<ReleaseRow | undefined> {
  const row = await db.prepare("SELECT r.* FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?").bind(portalId).first<ReleaseDbRow>();
  return row ? releaseOf(row) : undefined;
}

/** The live release and every page row of it, in two statements of one D1 batch. */
export async function liveReleaseWithPages(db: D1Database, portalId: number): Promise<{ release: ReleaseRow; pages: PageRow[] } | undefined> {
  const [rel, pages] = await db.batch([
    db.prepare("SELECT r.* FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?").bind(portalId),
    db.prepare("SELECT p.* FROM content_live l JOIN content_pages p ON p.release_id = l.release_id WHERE l.portal_id = ? ORDER BY p.position, p.title").bind(portalId),
  ]);
  const r = (rel.results as unknown as ReleaseDbRow[])[0];
  if (!r) return undefined;
  return { release: releaseOf(r), pages: (pages.results as unknown as PageDbRow[]).map(pageOf) };
}

/** A content_pages row as D1 returns it. */
export interface PageDbRow {
  kind: string; slug: string; locale: string; title: string; description: string | null; tags: string; labels: string; operations: string; position: number;
  file: string; kv_key: string; change_type: string | null; change_version: string | null; change_date: string | null; change_api: string | null;
}

/** Parses a page row's JSON columns. */
export function pageOf(r: PageDbRow): PageRow {
  return {
    kind: r.kind as PageKind, slug: r.slug, locale: r.locale, title: r.title, description: r.description ?? undefined, tags: JSON.parse(r.tags),
    labels: JSON.parse(r.labels), operations: JSON.parse(r.operations), order: r.position, file: r.file, kvKey: r.kv_key,
    changelog: r.change_type ? { type: r.change_type as ChangeType, version: r.change_version!, date: r.change_date!, api: r.change_api ?? undefined } : undefined,
  };
}

/** Whether an asset (by hash) belongs to the portal's live release. */
export async function liveAssetType(db: D1Database, portalId: number, sha: string): Promise<string | undefined> {
  const row = await db.prepare("SELECT a.content_type AS t FROM content_live l JOIN content_assets a ON a.release_id = l.release_id WHERE l.portal_id = ? AND a.sha256 = ? LIMIT 1")
    .bind(portalId, sha).first<{ t: string }>();
  return row?.t;
}

/**
 * Records a release and makes it live: the release row first (its id), then pages (one json_each statement),
 * assets, the published status and the live pointer in one batch, so a failure leaves the live release as it was.
 */
export async function commitRelease(db: D1Database, portalId: number, bundleSha: string, digest: string, release: CompiledRelease, keys: string[], now: string): Promise<number> {
  const count = (k: PageKind) => release.pages.filter((p) => p.meta.kind === k).length;
  const inserted = await db.prepare(
    "INSERT INTO content_releases (portal_id, digest, bundle_sha256, config, glossary, checks, pages, steps, changelog, status, created_at) VALUES (?,?,?,?,?,?,?,?,?,'pending',?) RETURNING id",
  ).bind(portalId, digest, bundleSha, JSON.stringify(release.config), JSON.stringify(release.glossary), JSON.stringify(release.checks), count("guide"), count("step"), count("changelog"), now)
    .first<{ id: number }>();
  const id = inserted!.id;
  const rows = release.pages.map((p, i) => {
    const m = p.meta;
    return [m.kind, m.slug, m.locale, m.title, m.description ?? null, JSON.stringify(m.tags), JSON.stringify(m.labels), JSON.stringify(m.operations),
      Math.min(m.order, 1e9), m.file, keys[i], m.changelog?.type ?? null, m.changelog?.version ?? null, m.changelog?.date ?? null, m.changelog?.api ?? null];
  });
  const cols = ["kind", "slug", "locale", "title", "description", "tags", "labels", "operations", "position", "file", "kv_key", "change_type", "change_version", "change_date", "change_api"];
  const statements: D1PreparedStatement[] = [];
  // One statement per 500 pages keeps each bound JSON argument well under D1's statement size limits.
  for (let i = 0; i < rows.length; i += 500) {
    statements.push(db.prepare(
      `INSERT INTO content_pages (release_id, ${cols.join(", ")}) SELECT ?, ${cols.map((_c, j) => `json_extract(value, '$[${j}]')`).join(", ")} FROM json_each(?)`,
    ).bind(id, JSON.stringify(rows.slice(i, i + 500))));
  }
  if (release.assets.length > 0) {
    statements.push(db.prepare(
      "INSERT INTO content_assets (release_id, path, sha256, content_type) SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)",
    ).bind(id, JSON.stringify(release.assets.map((a) => [a.path, a.sha256, a.contentType]))));
  }
  statements.push(
    db.prepare("UPDATE content_releases SET status = 'published' WHERE id = ?").bind(id),
    db.prepare("INSERT INTO content_live (portal_id, release_id, updated_at) VALUES (?, ?, ?) ON CONFLICT(portal_id) DO UPDATE SET release_id = excluded.release_id, updated_at = excluded.updated_at")
      .bind(portalId, id, now),
  );
  await db.batch(statements);
  return id;
}

/** Live operations of every API of the portal, for `op:` links and the undocumented-operations check. */
export async function liveOperationIndex(db: D1Database, portalId: number): Promise<Map<string, { slug: string; method: string; path: string; operationId: string | null }[]>> {
  const { results } = await db.prepare(
    "SELECT a.slug AS api, o.slug, o.method, o.path, o.operation_id AS operationId FROM apis a JOIN operations o ON o.version_id = a.live_version_id WHERE a.portal_id = ? AND o.kind = 'operation' ORDER BY a.slug, o.position",
  ).bind(portalId).all<{ api: string; slug: string; method: string; path: string; operationId: string | null }>();
  const index = new Map<string, { slug: string; method: string; path: string; operationId: string | null }[]>();
  for (const r of results) {
    if (!index.has(r.api)) index.set(r.api, []);
    index.get(r.api)!.push({ slug: r.slug, method: r.method, path: r.path, operationId: r.operationId });
  }
  return index;
}
