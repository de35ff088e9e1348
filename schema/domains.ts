/** @module Custom domains: the hostname a portal is served at (issue 33), as registered through `CustomHostnames`. */
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/**
 * One custom hostname per portal, unique across portals (a second registration of the same name is 409). While
 * `status` is "pending" the hostname routes nowhere; once "active" it is also copied into `portals.hostname` in the
 * same D1 batch, so every portal query sees it without a join.
 */
export const customHostnames = sqliteTable("custom_hostnames", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  portalId: integer("portal_id").notNull().unique().references(() => portals.id),
  /** Lower-case ASCII (IDNA) host name without a trailing dot, e.g. "docs.example.com". */
  hostname: text("hostname").notNull().unique(),
  /** "pending" (validation or certificate not done yet) | "active" (routed). */
  status: text("status").notNull(),
  /** Domain control validation method: "http" | "txt". */
  validation: text("validation").notNull(),
  /** The provider's id of the hostname (Cloudflare's custom hostname id; "embedded:{hostname}" locally). */
  providerId: text("provider_id").notNull(),
  /** The provider's hostname status ("pending", "active", "moved", ...), shown as is. */
  hostnameStatus: text("hostname_status").notNull(),
  /** The certificate's status ("pending_validation", "active", ...), shown as is. */
  certificateStatus: text("certificate_status").notNull(),
  /** JSON array of the DNS records the customer must create: `{type, name, value, purpose}`. */
  dnsRecords: text("dns_records").notNull().default("[]"),
  /** JSON array of the provider's validation errors (strings), "[]" when none. */
  errors: text("errors").notNull().default("[]"),
  /** ISO 8601 instants. */
  createdAt: text("created_at").notNull(),
  checkedAt: text("checked_at").notNull(),
});
