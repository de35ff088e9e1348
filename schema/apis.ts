/** @module API references, their published versions and their operations. */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/** One API reference of a portal. `liveVersionId` is the only mutable publishing fact (flipped last). */
export const apis = sqliteTable(
  "apis",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    liveVersionId: integer("live_version_id"),
    /** "page-per-operation" (default) or "single-page". */
    layout: text("layout").notNull().default("page-per-operation"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("apis_portal_slug").on(t.portalId, t.slug)],
);

/**
 * One accepted publication. Rows are immutable once `status` is "published"; re-posting a label with new
 * content adds a row (the newest row of a label is what the label's URL serves).
 */
export const versions = sqliteTable(
  "versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    apiId: integer("api_id").notNull().references(() => apis.id),
    label: text("label").notNull(),
    /** Hex SHA-256 of the raw uploaded body (the R2 key). */
    sha256: text("sha256").notNull(),
    /**
     * The media type `GET /v1/apis/{api}/definition` serves, decided by Portico from the body's format
     * (application/yaml, application/json, application/gzip, application/zip, application/x-tar); null on rows
     * published before it was kept (served by sniffing). Per publication: the R2 blob is shared by every portal.
     */
    mediaType: text("media_type"),
    /**
     * The archive's root file as `?root=` named it when the version was published (null: a single file, or a root
     * found automatically). Kept so what re-reads the archive (the diff, publish/changes.ts) builds the same root.
     */
    root: text("root"),
    /** KV key prefix of this version's model (content-addressed). */
    modelKey: text("model_key").notNull(),
    sourceVersion: text("source_version").notNull(),
    title: text("title").notNull(),
    operations: integer("operations").notNull(),
    schemas: integer("schemas").notNull(),
    securitySchemes: integer("security_schemes").notNull(),
    webhooks: integer("webhooks").notNull(),
    callbacks: integer("callbacks").notNull(),
    /**
     * The lint report: the upload answer's `lint` block as JSON (`{errors, warnings, issues, truncated?, note?}`;
     * rows from before issue 12 hold only the issues array). `{}` while `lintStatus` is "pending".
     */
    lint: text("lint").notNull(),
    lintErrors: integer("lint_errors").notNull(),
    lintWarnings: integer("lint_warnings").notNull(),
    /**
     * "complete" once the report is stored; "pending" while a large definition, already live, is still being
     * linted by its portal's PortalPublisher (issue 12: lint does not hold the live flip).
     */
    lintStatus: text("lint_status").notNull().default("complete"),
    /** "pending" while slices are written, "published" once complete, "failed" if the publish broke. */
    status: text("status").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("versions_api_label").on(t.apiId, t.label)],
);

/** Operations (and webhook/callback operations) of a version, for indexes, navigation and slug lookups. */
export const operations = sqliteTable(
  "operations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    versionId: integer("version_id").notNull().references(() => versions.id),
    /** Position in document order. */
    position: integer("position").notNull(),
    slug: text("slug").notNull(),
    kind: text("kind").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    operationId: text("operation_id"),
    summary: text("summary"),
    /** First tag, or "" when untagged. */
    tag: text("tag").notNull(),
    deprecated: integer("deprecated", { mode: "boolean" }).notNull(),
    /** Where the operation's slice is in KV: chunk number, UTF-16 offset and length (store/models.ts). */
    chunk: integer("chunk").notNull().default(0),
    sliceOffset: integer("slice_offset").notNull().default(0),
    sliceLength: integer("slice_length").notNull().default(0),
  },
  (t) => [
    uniqueIndex("operations_version_slug").on(t.versionId, t.slug),
    index("operations_version_tag").on(t.versionId, t.tag),
    index("operations_version_method_path").on(t.versionId, t.method, t.path),
    index("operations_slug").on(t.slug),
  ],
);
