/**
 * @module Docs API keys (issue 31): `pk_` public keys for embeds (read, search and ask from their listed origins
 * only) and `sk_` secret keys for servers. Keys are shown once at creation and stored only as SHA-256 hashes; a
 * revoked key's row stays (with `revoked_at`) so its id never names another key.
 */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

export const docsApiKeys = sqliteTable(
  "docs_api_keys",
  {
    /** `key_` + 16 random bytes (base64url): the id `DELETE /v1/portal/keys/{id}` takes. */
    id: text("id").primaryKey(),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    /** `public` (pk_) or `secret` (sk_). */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text("key_hash").notNull(),
    /** The key's first characters (`pk_AbCd`), so owners can tell keys apart without the key. */
    keyStart: text("key_start").notNull(),
    /** JSON array of origins (`https://help.example.com`) a public key is accepted from; `[]` for secret keys. */
    origins: text("origins").notNull().default("[]"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("docs_api_keys_hash").on(t.keyHash), index("docs_api_keys_portal").on(t.portalId)],
);
