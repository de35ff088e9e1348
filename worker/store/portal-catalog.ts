/**
 * @module PortalCatalog (issue 37): one SQLite-backed Durable Object per portal that holds the portal's per-version
 * catalog rows, the operations of every publication (one row per operation per version: the bulk of what a portal
 * stores, 2e8 rows at 10,000 portals; docs/architecture.md, "Per-portal storage"). The shared D1 keeps what is small
 * and per portal (portals, APIs, versions, live pointers, search shard rows); a portal's operations never share a
 * table or a database with another portal's, and a portal's catalog grows with that portal only.
 *
 * Not the PortalPublisher: a publish holds its object's thread for seconds of synchronous build work, and readers
 * must not queue behind it. Writes come from the PortalPublisher only (which serialises them), before the D1 batch
 * that makes the version live: rows of a version that is not (yet) published are never read, since readers find
 * version ids in D1 first. Reads are one RPC from the Worker.
 *
 * It also holds the page rows of the portal's content releases (`content_pages`: one row per guide, code steps page
 * and changelog entry per release, locale included; a portal of 1,000 guides in 5 locales publishing daily adds
 * 5,000 rows a release), written by the publisher before the D1 batch that makes the release live (readers find
 * the live release id in D1 first, so rows of a release not yet live are never read).
 *
 * Rows of portals published before the catalog existed are moved here from D1's `operations` and `content_pages`
 * tables (and lint reports from `versions.lint`) the first time the portal's catalog is used (then deleted or
 * emptied there): {@link PortalCatalog.ready}.
 */
import { DurableObject } from "cloudflare:workers";

/** An operation row as readers use it (the columns of D1's former `operations` table; `id` is the catalog's own). */
export interface CatalogOperation {
  id: number;
  versionId: number;
  /** Position in document order. */
  position: number;
  slug: string;
  kind: string;
  method: string;
  path: string;
  operationId: string | null;
  summary: string | null;
  /** First tag, or "" when untagged. */
  tag: string;
  deprecated: boolean;
  /** Where the operation's slice is in KV: chunk number, UTF-16 offset and length (store/models.ts). */
  chunk: number;
  sliceOffset: number;
  sliceLength: number;
}

/** A row as a publish hands it in: document order is the array's. */
export type NewOperation = Omit<CatalogOperation, "id" | "versionId" | "position">;

/** An operation of a live version, tagged with its API's slug (content links, the undocumented-operations check). */
export type LiveOperation = CatalogOperation & { api: string };

/** The schema, created on the object's first use; `catalog_meta`'s `schema` row numbers later changes (Durable Objects refuse PRAGMA user_version). */
const SCHEMA_VERSION = 1;
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS operations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    slug TEXT NOT NULL,
    kind TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    operation_id TEXT,
    summary TEXT,
    tag TEXT NOT NULL,
    deprecated INTEGER NOT NULL,
    chunk INTEGER NOT NULL,
    slice_offset INTEGER NOT NULL,
    slice_length INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS operations_version_slug ON operations (version_id, slug);
  CREATE INDEX IF NOT EXISTS operations_version_tag ON operations (version_id, tag, position);
  CREATE INDEX IF NOT EXISTS operations_version_method_path ON operations (version_id, method, path);
  CREATE INDEX IF NOT EXISTS operations_slug ON operations (slug);
  CREATE TABLE IF NOT EXISTS catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS lint_reports (version_id INTEGER PRIMARY KEY, report TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS content_pages (
    release_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    slug TEXT NOT NULL,
    locale TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    tags TEXT NOT NULL,
    labels TEXT NOT NULL,
    operations TEXT NOT NULL,
    position INTEGER NOT NULL,
    file TEXT NOT NULL,
    chunk_key TEXT NOT NULL,
    slice_offset INTEGER NOT NULL,
    slice_length INTEGER NOT NULL,
    change_type TEXT,
    change_version TEXT,
    change_date TEXT,
    change_api TEXT,
    PRIMARY KEY (release_id, kind, locale, slug)
  );
`;

/** The columns of a content page row, in the order {@link PortalCatalog.putPages} takes them (D1's former `content_pages`'). */
export const PAGE_COLUMNS = ["kind", "slug", "locale", "title", "description", "tags", "labels", "operations", "position", "file", "chunk_key", "slice_offset", "slice_length", "change_type", "change_version", "change_date", "change_api"] as const;

/** A content page row as a publish hands it in: the values of {@link PAGE_COLUMNS}, in that order. */
export type NewPageRow = Array<string | number | null>;

/** Imports that must have run before the catalog answers (catalog_meta keys). */
const IMPORTS = ["imported", "lint-imported", "pages-imported"];

const COLUMNS = `id, version_id AS versionId, position, slug, kind, method, path, operation_id AS operationId, summary, tag, deprecated, chunk, slice_offset AS sliceOffset, slice_length AS sliceLength`;

/** Rows read from D1 per round trip while a portal's rows are moved over (a D1 answer stays a few MB). */
const IMPORT_PAGE_ROWS = 5_000;
/** Lint reports read from D1 per round trip while they are moved over (a report is up to ~1 MB: lint-step.ts). */
const IMPORT_PAGE_REPORTS = 16;
/** Content page rows read from D1 per round trip while they are moved over (a row is a few hundred bytes). */
const IMPORT_PAGE_PAGES = 2_000;

type SqlRow = Omit<CatalogOperation, "deprecated"> & { deprecated: number };

function operationOf(row: SqlRow): CatalogOperation {
  return { ...row, deprecated: row.deprecated !== 0 };
}

/** One portal's catalog (named `portal:{id}`, {@link catalogFor}); every method takes the portal's id, checked against the first. */
export class PortalCatalog extends DurableObject<Env> {
  private importing?: Promise<void>;
  /** The portal whose rows are all here (set once checked and imported): later calls skip the two lookups. */
  private readyFor?: number;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec(SCHEMA);
    sql.exec("INSERT OR IGNORE INTO catalog_meta (key, value) VALUES ('schema', ?)", String(SCHEMA_VERSION));
  }

  /**
   * Resolves once the portal's rows are here: the first call moves rows published before the catalog existed from
   * D1's shared `operations` table (paged, then deleted there, so the shared table empties as portals are used).
   * Concurrent calls wait for the same move; a failed move is retried by the next call. Throws when `portalId`
   * differs from the portal this object holds.
   */
  private async ready(portalId: number): Promise<void> {
    if (this.readyFor === portalId) return;
    const sql = this.ctx.storage.sql;
    const owner = sql.exec<{ value: string }>("SELECT value FROM catalog_meta WHERE key = 'portal'").toArray()[0]?.value;
    if (owner === undefined) sql.exec("INSERT INTO catalog_meta (key, value) VALUES ('portal', ?)", String(portalId));
    else if (owner !== String(portalId)) throw new Error(`catalog of portal ${owner} asked for portal ${portalId}`);
    if (sql.exec("SELECT 1 FROM catalog_meta WHERE key IN (SELECT value FROM json_each(?))", JSON.stringify(IMPORTS)).toArray().length < IMPORTS.length) {
      this.importing ??= this.importFromD1(portalId).finally(() => (this.importing = undefined));
      await this.importing;
    }
    this.readyFor = portalId;
  }

  private async importFromD1(portalId: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (!sql.exec("SELECT 1 FROM catalog_meta WHERE key = 'imported'").toArray().length) await this.importOperations(portalId);
    if (!sql.exec("SELECT 1 FROM catalog_meta WHERE key = 'lint-imported'").toArray().length) await this.importLintReports(portalId);
    if (!sql.exec("SELECT 1 FROM catalog_meta WHERE key = 'pages-imported'").toArray().length) await this.importContentPages(portalId);
  }

  /**
   * Moves the page rows of the portal's content releases from D1's shared `content_pages` here, a page of rows at a
   * time: each is stored, then deleted in D1. A row already here (a release published since) is kept.
   */
  private async importContentPages(portalId: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    const legacy = await this.env.DB.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'content_pages'").first();
    while (legacy) {
      const { results } = await this.env.DB.prepare(
        `SELECT p.id, p.release_id AS releaseId, ${PAGE_COLUMNS.map((c) => `p.${c}`).join(", ")}
           FROM content_pages p JOIN content_releases r ON r.id = p.release_id WHERE r.portal_id = ? ORDER BY p.id LIMIT ?`,
      ).bind(portalId, IMPORT_PAGE_PAGES).all<Record<string, string | number | null> & { id: number; releaseId: number }>();
      if (!results.length) break;
      this.ctx.storage.transactionSync(() => {
        for (const r of results) insertPage(sql, r.releaseId, PAGE_COLUMNS.map((c) => r[c] ?? null), true);
      });
      await this.env.DB.prepare("DELETE FROM content_pages WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(results.map((r) => r.id))).run();
    }
    sql.exec("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('pages-imported', ?)", new Date().toISOString());
  }

  /**
   * Moves the portal's stored lint reports (D1 `versions.lint`, up to ~1 MB each) here, a page at a time: each page
   * is stored, then emptied in D1 (`{}`, what a version without its report holds), so the shared table keeps only
   * the counts. A report already here (written since) is kept.
   */
  private async importLintReports(portalId: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    for (;;) {
      const { results } = await this.env.DB.prepare(
        `SELECT v.id, v.lint FROM versions v JOIN apis a ON a.id = v.api_id WHERE a.portal_id = ? AND v.lint <> '{}' ORDER BY v.id LIMIT ?`,
      ).bind(portalId, IMPORT_PAGE_REPORTS).all<{ id: number; lint: string }>();
      if (!results.length) break;
      this.ctx.storage.transactionSync(() => {
        for (const r of results) sql.exec("INSERT OR IGNORE INTO lint_reports (version_id, report) VALUES (?, ?)", r.id, r.lint);
      });
      await this.env.DB.prepare("UPDATE versions SET lint = '{}' WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(results.map((r) => r.id))).run();
    }
    sql.exec("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('lint-imported', ?)", new Date().toISOString());
  }

  private async importOperations(portalId: number): Promise<void> {
    const sql = this.ctx.storage.sql;
    // D1 databases created after the catalog (migrations that drop the legacy table) have nothing to move.
    const legacy = await this.env.DB.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'operations'").first();
    if (legacy) {
      let after = 0;
      for (;;) {
        const { results } = await this.env.DB.prepare(
          `SELECT o.id, o.version_id AS versionId, o.position, o.slug, o.kind, o.method, o.path, o.operation_id AS operationId, o.summary, o.tag, o.deprecated, o.chunk, o.slice_offset AS sliceOffset, o.slice_length AS sliceLength
             FROM operations o JOIN versions v ON v.id = o.version_id JOIN apis a ON a.id = v.api_id
            WHERE a.portal_id = ? AND o.id > ? ORDER BY o.id LIMIT ?`,
        ).bind(portalId, after, IMPORT_PAGE_ROWS).all<SqlRow>();
        if (!results.length) break;
        this.ctx.storage.transactionSync(() => {
          for (const r of results) insertRow(sql, r.versionId, r.position, r);
        });
        after = results[results.length - 1]!.id;
      }
    }
    sql.exec("INSERT OR REPLACE INTO catalog_meta (key, value) VALUES ('imported', ?)", new Date().toISOString());
    // The shared table gives the rows up only once they are stored here.
    if (legacy) {
      await this.env.DB.prepare("DELETE FROM operations WHERE version_id IN (SELECT v.id FROM versions v JOIN apis a ON a.id = v.api_id WHERE a.portal_id = ?)").bind(portalId).run();
    }
  }

  /**
   * Stores a piece of a version's operations in document order, the first at `position` (a publish, before the D1
   * batch that makes the version live; {@link putOperations} sends them in pieces). The piece at position 0 first
   * drops any rows the version already had (a retried publish). Each piece is one transaction.
   */
  async putOperations(portalId: number, versionId: number, position: number, rows: NewOperation[]): Promise<void> {
    await this.ready(portalId);
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      if (position === 0) sql.exec("DELETE FROM operations WHERE version_id = ?", versionId);
      insertRows(sql, versionId, position, rows);
    });
  }

  /** Drops a version's rows (a publish that failed after storing them; its version row says "failed"). */
  async dropVersion(portalId: number, versionId: number): Promise<void> {
    await this.ready(portalId);
    this.ctx.storage.sql.exec("DELETE FROM operations WHERE version_id = ?", versionId);
  }

  /** A version's operations in document order. */
  async operations(portalId: number, versionId: number): Promise<CatalogOperation[]> {
    await this.ready(portalId);
    return this.ctx.storage.sql.exec<SqlRow>(`SELECT ${COLUMNS} FROM operations WHERE version_id = ? ORDER BY position`, versionId).toArray().map(operationOf);
  }

  /** One operation of a version by its page slug, or null. */
  async operation(portalId: number, versionId: number, slug: string): Promise<CatalogOperation | null> {
    await this.ready(portalId);
    const row = this.ctx.storage.sql.exec<SqlRow>(`SELECT ${COLUMNS} FROM operations WHERE version_id = ? AND slug = ?`, versionId, slug).toArray()[0];
    return row ? operationOf(row) : null;
  }

  /** A version's operations whose first tag is `tag` ("" for untagged), in document order. */
  async operationsOfTag(portalId: number, versionId: number, tag: string): Promise<CatalogOperation[]> {
    await this.ready(portalId);
    return this.ctx.storage.sql.exec<SqlRow>(`SELECT ${COLUMNS} FROM operations WHERE version_id = ? AND tag = ? ORDER BY position`, versionId, tag).toArray().map(operationOf);
  }

  /** The first operation (document order) of a version whose operationId is `operationId`, or, lacking one, whose slug is; or null. */
  async operationById(portalId: number, versionId: number, operationId: string): Promise<CatalogOperation | null> {
    await this.ready(portalId);
    const row = this.ctx.storage.sql.exec<SqlRow>(
      `SELECT ${COLUMNS} FROM operations WHERE version_id = ? AND (operation_id = ? OR (operation_id IS NULL AND slug = ?)) ORDER BY position LIMIT 1`,
      versionId, operationId, operationId,
    ).toArray()[0];
    return row ? operationOf(row) : null;
  }

  /**
   * Where an operation slug that is not in `versionId` went: the same method + path in this version (a renamed
   * operationId), else its tag, from the newest of `publishedIds` (the API's other published versions) holding it.
   */
  async moved(portalId: number, publishedIds: number[], versionId: number, slug: string): Promise<{ slug: string } | { tag: string } | null> {
    await this.ready(portalId);
    const sql = this.ctx.storage.sql;
    if (!publishedIds.length) return null;
    const elsewhere = sql.exec<{ method: string; path: string; tag: string; kind: string }>(
      `SELECT method, path, tag, kind FROM operations WHERE slug = ? AND version_id IN (SELECT value FROM json_each(?)) ORDER BY version_id DESC LIMIT 1`,
      slug, JSON.stringify(publishedIds),
    ).toArray()[0];
    if (!elsewhere) return null;
    const same = sql.exec<{ slug: string }>("SELECT slug FROM operations WHERE version_id = ? AND method = ? AND path = ? AND kind = ? LIMIT 1", versionId, elsewhere.method, elsewhere.path, elsewhere.kind).toArray()[0];
    if (same) return { slug: same.slug };
    if (elsewhere.tag && sql.exec("SELECT 1 FROM operations WHERE version_id = ? AND tag = ? LIMIT 1", versionId, elsewhere.tag).toArray().length) return { tag: elsewhere.tag };
    return null;
  }

  /**
   * Operations of the given live versions (`[api slug, version id]` pairs), sorted by API slug then document order;
   * with `slugs`, only those operation slugs; with `kind`, only that kind.
   */
  async liveOperations(portalId: number, live: Array<[string, number]>, options: { slugs?: string[]; kind?: string } = {}): Promise<LiveOperation[]> {
    await this.ready(portalId);
    if (!live.length) return [];
    const apiOf = new Map(live.map(([api, id]) => [id, api]));
    const where = [`version_id IN (SELECT value FROM json_each(?))`];
    const args: unknown[] = [JSON.stringify(live.map(([, id]) => id))];
    if (options.slugs) (where.push("slug IN (SELECT value FROM json_each(?))"), args.push(JSON.stringify(options.slugs)));
    if (options.kind) (where.push("kind = ?"), args.push(options.kind));
    const rows = this.ctx.storage.sql.exec<SqlRow>(`SELECT ${COLUMNS} FROM operations WHERE ${where.join(" AND ")}`, ...args).toArray();
    return rows
      .map((r) => ({ ...operationOf(r), api: apiOf.get(r.versionId)! }))
      .sort((a, b) => (a.api < b.api ? -1 : a.api > b.api ? 1 : a.position - b.position));
  }

  /** Stores a version's lint report (the JSON `storedLintJson` makes), replacing any it had. */
  async putLintReport(portalId: number, versionId: number, report: string): Promise<void> {
    await this.ready(portalId);
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO lint_reports (version_id, report) VALUES (?, ?)", versionId, report);
  }

  /** A version's stored lint report (JSON), or null when none is stored here. */
  async lintReport(portalId: number, versionId: number): Promise<string | null> {
    await this.ready(portalId);
    return this.ctx.storage.sql.exec<{ report: string }>("SELECT report FROM lint_reports WHERE version_id = ?", versionId).toArray()[0]?.report ?? null;
  }

  /**
   * Stores a piece of a release's page rows (values in {@link PAGE_COLUMNS} order), before the D1 batch that makes
   * the release live or records its preview. The piece with `first` drops any rows the release had (a retried
   * publish). Each piece is one transaction.
   */
  async putPages(portalId: number, releaseId: number, first: boolean, rows: NewPageRow[]): Promise<void> {
    await this.ready(portalId);
    const sql = this.ctx.storage.sql;
    this.ctx.storage.transactionSync(() => {
      if (first) sql.exec("DELETE FROM content_pages WHERE release_id = ?", releaseId);
      for (const r of rows) insertPage(sql, releaseId, r, false);
    });
  }

  /** A release's page rows (D1's former `content_pages` columns, snake case), in navigation order (position, title). */
  async releasePages(portalId: number, releaseId: number): Promise<Array<Record<string, string | number | null>>> {
    await this.ready(portalId);
    return this.ctx.storage.sql.exec<Record<string, string | number | null>>(`SELECT ${PAGE_COLUMNS.join(", ")} FROM content_pages WHERE release_id = ? ORDER BY position, title`, releaseId).toArray();
  }

  /** Drops the page rows of releases (expired previews, a failed publish). */
  async dropReleasePages(portalId: number, releaseIds: number[]): Promise<void> {
    await this.ready(portalId);
    if (releaseIds.length) this.ctx.storage.sql.exec("DELETE FROM content_pages WHERE release_id IN (SELECT value FROM json_each(?))", JSON.stringify(releaseIds));
  }

  /** Guides and steps of a release in `locale` whose operation links include `key` (`api#slug`), in navigation order (at most 20). */
  async linkingPages(portalId: number, releaseId: number, locale: string, key: string): Promise<Array<{ kind: string; slug: string; title: string; locale: string; labels: string }>> {
    await this.ready(portalId);
    return this.ctx.storage.sql.exec<{ kind: string; slug: string; title: string; locale: string; labels: string }>(
      `SELECT kind, slug, title, locale, labels FROM content_pages
        WHERE release_id = ? AND kind IN ('guide', 'step') AND locale = ? AND EXISTS (SELECT 1 FROM json_each(operations) j WHERE j.value = ?)
        ORDER BY position, title LIMIT 20`,
      releaseId, locale, key,
    ).toArray();
  }

  /** Guides and steps of a release in `locale` linking to any operation of `api`: one row per page and operation key, in navigation order, at most `limit`. */
  async linkingPagesForApi(portalId: number, releaseId: number, locale: string, api: string, limit: number): Promise<Array<{ kind: string; slug: string; title: string; locale: string; labels: string; operation: string }>> {
    await this.ready(portalId);
    return this.ctx.storage.sql.exec<{ kind: string; slug: string; title: string; locale: string; labels: string; operation: string }>(
      `SELECT p.kind, p.slug, p.title, p.locale, p.labels, j.value AS operation FROM content_pages p JOIN json_each(p.operations) j
        WHERE p.release_id = ? AND p.kind IN ('guide', 'step') AND p.locale = ? AND substr(j.value, 1, ?) = ?
        ORDER BY p.position, p.title LIMIT ?`,
      releaseId, locale, api.length + 1, `${api}#`, limit,
    ).toArray();
  }

  /** Rows held, per version id (tests and the benchmark: what one portal stores). */
  async counts(portalId: number): Promise<Record<number, number>> {
    await this.ready(portalId);
    const rows = this.ctx.storage.sql.exec<{ v: number; n: number }>("SELECT version_id AS v, COUNT(*) AS n FROM operations GROUP BY version_id").toArray();
    return Object.fromEntries(rows.map((r) => [r.v, r.n]));
  }
}

function insertRow(sql: SqlStorage, versionId: number, position: number, r: Omit<NewOperation, "deprecated"> & { deprecated: boolean | number }): void {
  sql.exec(
    "INSERT INTO operations (version_id, position, slug, kind, method, path, operation_id, summary, tag, deprecated, chunk, slice_offset, slice_length) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    versionId, position, r.slug, r.kind, r.method, r.path, r.operationId ?? null, r.summary ?? null, r.tag, r.deprecated ? 1 : 0, r.chunk, r.sliceOffset, r.sliceLength,
  );
}

/**
 * Characters of JSON per bulk insert: Durable Object SQLite refuses a string value past 2 MB, and a character is at
 * most 3 bytes of UTF-8 here (no lone surrogates survive JSON.stringify's escaping).
 */
const INSERT_JSON_CHARS = 600_000;

const BULK_INSERT = `INSERT INTO operations (version_id, position, slug, kind, method, path, operation_id, summary, tag, deprecated, chunk, slice_offset, slice_length)
  SELECT ?1, ?2 + key, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
    json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
    json_extract(value, '$[8]'), json_extract(value, '$[9]'), json_extract(value, '$[10]')
  FROM json_each(?3)`;

/**
 * Inserts `rows` at positions `position`, `position + 1`, … as a few statements, each reading a JSON array of rows
 * (`json_each`) rather than one statement per row: Microsoft Graph v1.0's 11,422 rows took ~0.8-1.6 s of the
 * publish's CPU one `exec` at a time (issue 37); SQLite's JSON reader does the per-row work in C.
 */
function insertRows(sql: SqlStorage, versionId: number, position: number, rows: readonly NewOperation[]): void {
  let batch: string[] = [];
  let chars = 0;
  let at = position;
  const flush = () => {
    if (!batch.length) return;
    sql.exec(BULK_INSERT, versionId, at, `[${batch.join(",")}]`);
    at += batch.length;
    batch = [];
    chars = 0;
  };
  for (const r of rows) {
    const row = JSON.stringify([r.slug, r.kind, r.method, r.path, r.operationId ?? null, r.summary ?? null, r.tag, r.deprecated ? 1 : 0, r.chunk, r.sliceOffset, r.sliceLength]);
    if (chars + row.length > INSERT_JSON_CHARS) flush();
    batch.push(row);
    chars += row.length + 1;
  }
  flush();
}

function insertPage(sql: SqlStorage, releaseId: number, values: NewPageRow, keepExisting: boolean): void {
  if (values.length !== PAGE_COLUMNS.length) throw new Error(`a content page row has ${values.length} values, not ${PAGE_COLUMNS.length}`);
  sql.exec(
    `INSERT ${keepExisting ? "OR IGNORE " : ""}INTO content_pages (release_id, ${PAGE_COLUMNS.join(", ")}) VALUES (?, ${PAGE_COLUMNS.map(() => "?").join(", ")})`,
    releaseId, ...values,
  );
}

/** Page rows per putPages call (a row is a few hundred bytes; RPC messages are limited to 32 MiB). */
export const CATALOG_PUT_PAGES = 2_000;

/** Stores all of a release's page rows in pieces of {@link CATALOG_PUT_PAGES} (the release is not live or previewed yet). */
export async function putPages(catalog: Catalog, releaseId: number, rows: NewPageRow[]): Promise<void> {
  if (!rows.length) return catalog.stub.putPages(catalog.portalId, releaseId, true, []);
  for (let at = 0; at < rows.length; at += CATALOG_PUT_PAGES) await catalog.stub.putPages(catalog.portalId, releaseId, at === 0, rows.slice(at, at + CATALOG_PUT_PAGES));
}

/**
 * Rows per putOperations call: an RPC message is limited to 32 MiB, and a row weighs a few hundred bytes (its
 * summary is the author's); 2,000 keeps a piece within a few MB whatever the summaries.
 */
export const CATALOG_PUT_ROWS = 2_000;

/**
 * Stores all of a version's operation rows, in document order, in pieces of {@link CATALOG_PUT_ROWS} (rows of a
 * version that is not published are never read, so the pieces need not be one transaction).
 */
export async function putOperations(catalog: Catalog, versionId: number, rows: NewOperation[]): Promise<void> {
  if (!rows.length) return catalog.stub.putOperations(catalog.portalId, versionId, 0, []);
  for (let at = 0; at < rows.length; at += CATALOG_PUT_ROWS) await catalog.stub.putOperations(catalog.portalId, versionId, at, rows.slice(at, at + CATALOG_PUT_ROWS));
}

/** A portal's catalog, bound to its id: the calls readers and the publisher make. */
export interface Catalog {
  portalId: number;
  stub: DurableObjectStub<PortalCatalog>;
}

/** What {@link catalogFor} needs of the Worker's environment. */
export interface CatalogEnv {
  CATALOG: DurableObjectNamespace<PortalCatalog>;
}

/** The catalog of `portalId` (one object per portal, named by its id, as the SignInLimiter is). */
export function catalogFor(env: CatalogEnv, portalId: number): Catalog {
  return { portalId, stub: env.CATALOG.get(env.CATALOG.idFromName(`portal:${portalId}`)) };
}

/** `[api slug, live version id]` of each of the portal's APIs with a live version, by slug (one D1 statement). */
export async function liveVersions(d1: D1Database, portalId: number): Promise<Array<[string, number]>> {
  const { results } = await d1.prepare("SELECT slug, live_version_id AS id FROM apis WHERE portal_id = ? AND live_version_id IS NOT NULL ORDER BY slug")
    .bind(portalId).all<{ slug: string; id: number }>();
  return results.map((r) => [r.slug, r.id]);
}

/**
 * Operations of every live version of the portal (one D1 statement, then one catalog call), sorted by API slug then
 * document order; `options` as {@link PortalCatalog.liveOperations}.
 */
export async function liveOperationsOf(env: CatalogEnv & { DB: D1Database }, portalId: number, options: { slugs?: string[]; kind?: string } = {}): Promise<LiveOperation[]> {
  const live = await liveVersions(env.DB, portalId);
  return live.length ? catalogFor(env, portalId).stub.liveOperations(portalId, live, options) : [];
}
