/**
 * @module Readers and access: a portal's access settings and secrets, sign-in attempts (rate limits), magic-link
 * tokens, JWTs already used (replay), and the embedded mailer's outbox. Tokens are stored only as SHA-256 hashes.
 */
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/** One row per portal whose access was set through `PATCH /v1/portal` (absent: portico.yaml's block, else public). */
export const portalAccess = sqliteTable("portal_access", {
  portalId: integer("portal_id").primaryKey().references(() => portals.id),
  /** JSON: the non-secret fields PATCHed (AccessSettings, partial); portico.yaml's block fills the rest. */
  settings: text("settings").notNull(),
  /** Shared password as `pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>`, or null. */
  passwordHash: text("password_hash"),
  /** HS256 shared secret of the JWT way in (needed in clear to verify), or null. */
  jwtSecret: text("jwt_secret"),
  updatedAt: text("updated_at").notNull(),
});

/**
 * Magic links sent: single use (`used_at` set on first use), 15 minutes. A reader's link names its portal; a
 * writer's (the workspace's sign-in, worker/workspace/accounts.ts) has `portal_id` null.
 */
export const magicLinks = sqliteTable("magic_links", {
  tokenHash: text("token_hash").primaryKey(),
  portalId: integer("portal_id").references(() => portals.id),
  email: text("email").notNull(),
  returnTo: text("return_to").notNull(),
  /** Epoch milliseconds. */
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

/** JWTs already exchanged for a session (by `jti`, else the token's SHA-256), kept until they expire. */
export const usedTokens = sqliteTable(
  "used_tokens",
  {
    portalId: integer("portal_id").notNull().references(() => portals.id),
    tokenKey: text("token_key").notNull(),
    /** Epoch milliseconds: the token's own expiry (after which it is refused anyway and the row may go). */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.portalId, t.tokenKey] })],
);

/**
 * Messages of the embedded mailer (the local default of the `Mailer`/Outbox port), shown on the dev-only outbox
 * pages (`/p/{portal}/auth/outbox`, `/dev/outbox?to=`). `portal_id` is null for the workspace's own mail (writers'
 * sign-in links, invitations, credit warnings).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").references(() => portals.id),
    to: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("outbox_portal").on(t.portalId), index("outbox_to").on(t.to)],
);
