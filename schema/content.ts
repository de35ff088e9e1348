/**
 * @module Content releases (guides, code steps, changelog, glossary): one row per release, one per page and
 * asset, and the portal's live-release pointer (a table of its own: the only mutable fact, flipped last).
 */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/** One accepted content bundle. Immutable once `status` is "published". */
export const contentReleases = sqliteTable(
  "content_releases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    /** Hex SHA-256 over the release's stored pages, assets, config and glossary ("unchanged" detection). */
    digest: text("digest").notNull(),
    /** Hex SHA-256 of the uploaded archive (R2 key under content-bundles/). */
    bundleSha256: text("bundle_sha256").notNull(),
    /** JSON: portico.yaml once read (ContentConfig). */
    config: text("config").notNull(),
    /** JSON: GlossaryTerm[]. */
    glossary: text("glossary").notNull(),
    /** JSON: ContentChecks. */
    checks: text("checks").notNull(),
    pages: integer("pages").notNull(),
    steps: integer("steps").notNull(),
    changelog: integer("changelog").notNull(),
    /** "pending" while written, "published" once complete, "preview" for a dry run's preview (never live);
     * "expired" only inside the batch that deletes an expired preview (store/content.ts). */
    status: text("status").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("content_releases_portal").on(t.portalId)],
);

/** One page of a release: what lists, navigation, feeds and the sitemap need; the stored page is a slice of a KV chunk. */
export const contentPages = sqliteTable(
  "content_pages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    releaseId: integer("release_id").notNull().references(() => contentReleases.id),
    /** "guide", "step" or "changelog". */
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    locale: text("locale").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    /** JSON string arrays. */
    tags: text("tags").notNull(),
    /** Access labels (audience names); "[]" is public. */
    labels: text("labels").notNull(),
    /** Operation keys (`api#slug`) the page links to. */
    operations: text("operations").notNull(),
    position: integer("position").notNull(),
    file: text("file").notNull(),
    /** Where the stored page is: a KV chunk (content-addressed) and the page's UTF-16 offset and length in it. */
    chunkKey: text("chunk_key").notNull(),
    sliceOffset: integer("slice_offset").notNull(),
    sliceLength: integer("slice_length").notNull(),
    changeType: text("change_type"),
    changeVersion: text("change_version"),
    changeDate: text("change_date"),
    changeApi: text("change_api"),
  },
  (t) => [uniqueIndex("content_pages_release_page").on(t.releaseId, t.kind, t.locale, t.slug)],
);

/** An asset of a release (bytes in R2 under content-assets/<sha256>). */
export const contentAssets = sqliteTable(
  "content_assets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    releaseId: integer("release_id").notNull().references(() => contentReleases.id),
    path: text("path").notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
  },
  (t) => [index("content_assets_release").on(t.releaseId), index("content_assets_sha").on(t.sha256)],
);

/** The portal's live content release (one row per portal; absent: no content). */
export const contentLive = sqliteTable("content_live", {
  portalId: integer("portal_id").primaryKey().references(() => portals.id),
  releaseId: integer("release_id").notNull().references(() => contentReleases.id),
  updatedAt: text("updated_at").notNull(),
});

/** Preview links minted by dry runs: the token's SHA-256 (the token itself is shown once), its release and expiry. */
export const contentPreviews = sqliteTable(
  "content_previews",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    releaseId: integer("release_id").notNull().references(() => contentReleases.id),
    tokenHash: text("token_hash").notNull().unique(),
    /** ISO 8601 instant. */
    expiresAt: text("expires_at").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("content_previews_portal").on(t.portalId)],
);
