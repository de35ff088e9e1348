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
});

/** Portal API tokens, stored only as the hex SHA-256 of the token (tokens carry 256 random bits). */
export const portalTokens = sqliteTable(
  "portal_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("portal_tokens_portal").on(t.portalId)],
);
