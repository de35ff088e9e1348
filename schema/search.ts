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
  /**
   * JSON ShardStats (worker/search/shard-build.ts): the portal's search statistics, the sum of its live shards'
   * (documents, per field tokens and non-empty documents), updated by each publish with the new shard's counts minus
   * the replaced one's. Set: the portal is searched through `search_shards` (issue 37) and `index_key` is unused;
   * null: an index built before shards, read whole until the portal's next publish.
   */
  stats: text("stats"),
  /**
   * A random number drawn at each write of this row (issue 37): readers key their merged shards by it, so a query
   * whose isolate already holds this generation's merge reads neither the shard list nor the statistics again.
   */
  generation: integer("generation").notNull().default(0),
});

/** A portal's search shard per live source (issue 37): `api:{slug}` or `content`. Written in the flip's batch. */
export const searchShards = sqliteTable("search_shards", {
  portalId: integer("portal_id").notNull().references(() => portals.id),
  source: text("source").notNull(),
  /** KV key of the shard (`search/s/<sha256 of the data>.txt`); parts beyond the first at `<key>/<n>`. */
  shardKey: text("shard_key").notNull(),
  parts: integer("parts").notNull().default(1),
  documents: integer("documents").notNull(),
  /** KV key of the document set the shard was built from: a source whose set key moved (new version, layout, locale) is rebuilt. */
  docsKey: text("docs_key").notNull(),
  /** JSON ShardStats of this shard, subtracted from the portal's when the shard is replaced. */
  stats: text("stats").notNull(),
  builtAt: text("built_at").notNull(),
}, (t) => [primaryKey({ columns: [t.portalId, t.source] })]);

/** An organisation: several portals of one customer. `plan` "enterprise" turns on cross-portal search. */
export const organisations = sqliteTable("organisations", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  /**
   * trial | starter | pro | enterprise (worker/workspace/plans.ts); "team" is the name starter had before issue 32
   * (and stays the column's default so the migration only adds columns; the workspace always writes a plan).
   */
  plan: text("plan").notNull().default("team"),
  createdAt: text("created_at").notNull(),
  /** ISO 8601 instant the trial ends (plan "trial"); null for organisations made before issue 32 or on a paid plan. */
  trialEndsAt: text("trial_ends_at"),
  /** Stripe customer and subscription ids once the organisation subscribed (worker/workspace/billing.ts). */
  stripeCustomerId: text("stripe_customer_id"),
  stripeSubscriptionId: text("stripe_subscription_id"),
  /**
   * Whether the organisation's writers must sign in through its SAML IdP (Enterprise; worker/workspace/sso.ts
   * `requireSsoSession`): their e-mail-link sessions are refused here, except the owners' (the break-glass path).
   */
  writerSsoRequired: integer("writer_sso_required", { mode: "boolean" }).notNull().default(false),
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
