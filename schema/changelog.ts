/** @module Changelog drafts (issue 11): one per pair of consecutive published versions, reviewed before readers see it. */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { apis, versions } from "./apis";
import { portals } from "./portals";

/**
 * A draft changelog entry written from the diff between `fromVersionId` and `toVersionId`. Writers edit `title` and
 * `body`, then approve (readers see it in the changelog and its RSS) or discard it. `bullets` keeps what the
 * writer cited (JSON: operation, text, change ids), so an edit can be compared with the diff it came from.
 */
export const changelogDrafts = sqliteTable(
  "changelog_drafts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    apiId: integer("api_id").notNull().references(() => apis.id),
    fromVersionId: integer("from_version_id").notNull().references(() => versions.id),
    toVersionId: integer("to_version_id").notNull().references(() => versions.id),
    /** Breaking, New, Improved or Deprecated. */
    type: text("type").notNull(),
    /** `v<major>.<minor>.<patch>` (or the label as written when it is not numeric). */
    version: text("version").notNull(),
    /** YYYY-MM-DD. */
    date: text("date").notNull(),
    title: text("title").notNull(),
    /** Markdown. */
    body: text("body").notNull(),
    bullets: text("bullets").notNull(),
    /** "draft", "approved" or "discarded". */
    status: text("status").notNull(),
    createdAt: text("created_at").notNull(),
    reviewedAt: text("reviewed_at"),
  },
  (t) => [uniqueIndex("changelog_drafts_pair").on(t.apiId, t.fromVersionId, t.toVersionId), index("changelog_drafts_portal_status").on(t.portalId, t.status)],
);
