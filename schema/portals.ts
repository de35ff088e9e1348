/** @module Portals and their API tokens. */
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** A documentation portal: one team's docs site. Plans: "trial" (14 days from creation), later paid plans. */
export const portals = sqliteTable("portals", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("trial"),
  /** ISO 8601 instant. */
  trialEndsAt: text("trial_ends_at"),
  createdAt: text("created_at").notNull(),
  /**
   * Scheme + host readers reach the portal at (its custom domain), e.g. "https://docs.acme.com"; absolute URLs
   * (sitemap, canonical links, upload answers) are built on it, else on PORTICO_BASE_URL, never on a request's Host.
   */
  origin: text("origin"),
  /** JSON array of origins allowed to frame the portal's reader pages (CSP frame-ancestors); "[]" = none. */
  embedOrigins: text("embed_origins").notNull().default("[]"),
  /** Whether descriptions may show images from other (https) origins; off by default (tracking pixels). */
  externalImages: integer("external_images", { mode: "boolean" }).notNull().default(false),
  /**
   * Reader sessions sealed under another value are void: bumped by a change of access settings or secrets and by
   * "sign every reader out" (worker/access/session.ts). Read in the same query as the access settings.
   */
  sessionVersion: integer("session_version").notNull().default(0),
  /**
   * JSON of the brand set through PATCH /v1/portal (worker/content/brand.ts `Brand`, files already resolved to
   * content addresses); it wins key by key over the live release's portico.yaml `brand`. Null: none.
   */
  brand: text("brand"),
  /**
   * The portal's active custom hostname ("docs.example.com"), else null: copied from `custom_hostnames` when it
   * turns active and cleared when it is released. Set, the portal's reader URLs have no `/p/{slug}` prefix and live
   * on that host (worker/render/shell/base-path.ts).
   */
  hostname: text("hostname").unique(),
  /**
   * The organisation that owns the portal (worker/workspace/): its plan gates features and meters credits. Null for
   * portals the service admin made with `POST /v1/portals` outside any organisation (unmanaged: nothing gated).
   */
  organisationId: integer("organisation_id"),
});

/**
 * Portal API tokens, stored only as the hex SHA-256 of the token (tokens carry 256 random bits). The token made
 * with a portal (`POST /v1/portals`) and older ones have the one scope `manage` (everything); tokens made through
 * `POST /v1/tokens` (worker/workspace/tokens.ts) carry a name, scopes, an optional expiry and who made them.
 */
export const portalTokens = sqliteTable(
  "portal_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: text("created_at").notNull(),
    name: text("name").notNull().default("portal token"),
    /** JSON array of scopes (worker/workspace/scopes.ts): publish:apis, publish:content, read:analytics, manage. */
    scopes: text("scopes").notNull().default('["manage"]'),
    /** ISO 8601 instant after which the token is refused; null: never. */
    expiresAt: text("expires_at"),
    /** ISO 8601 instant of the token's last accepted use (updated at most once a minute). */
    lastUsedAt: text("last_used_at"),
    /** Writer id who made it through the workspace; null for a portal's first token. */
    createdBy: integer("created_by"),
  },
  (t) => [index("portal_tokens_portal").on(t.portalId)],
);
