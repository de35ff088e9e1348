/**
 * @module Search (issue 9): the portal's live search index pointer, and organisations grouping portals for the
 * Enterprise plan's cross-portal search. Index data is in KV (immutable, content-addressed: `search/i/<sha256>`);
 * the pointer row is the only mutable fact and flips in the same D1 batch as the version or release going live.
 */
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/** The portal's live search index: which KV value readers search. One row per portal, replaced on each build. */
export const searchLive = sqliteTable("search_live", {
  portalId: integer("portal_id").primaryKey().references(() => portals.id),
  /** KV key of the serialised index (`search/i/<sha256 of the data>`); parts beyond the first at `<key>/<n>`. */
  indexKey: text("index_key").notNull(),
  /** Number of KV values the index is stored in (values are at most 16 MiB each). */
  parts: integer("parts").notNull().default(1),
  /** Documents indexed (all of them, before any reader's filter). */
  documents: integer("documents").notNull(),
  /** JSON: the live content release's variable defaults (`{{name}}` in snippets), `{}` without content. */
  variables: text("variables").notNull().default("{}"),
  /** ISO 8601 instant of the build. */
  builtAt: text("built_at").notNull(),
});

/** An organisation: several portals of one customer. `plan` "enterprise" turns on cross-portal search. */
export const organisations = sqliteTable("organisations", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("team"),
  createdAt: text("created_at").notNull(),
});

/** Membership of portals in organisations. */
export const organisationPortals = sqliteTable(
  "organisation_portals",
  {
    organisationId: integer("organisation_id").notNull().references(() => organisations.id),
    portalId: integer("portal_id").notNull().references(() => portals.id),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.portalId] }), index("organisation_portals_portal").on(t.portalId)],
);
