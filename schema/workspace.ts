/**
 * @module The team side (issue 32): writers (accounts signed in by magic link), their sessions, organisation
 * members and invitations, the audit log and Stripe events already handled. Organisations themselves are in
 * schema/search.ts (`organisations`, `organisation_portals`: the portals an organisation owns), tokens in
 * schema/portals.ts (`portal_tokens`), magic links and the outbox in schema/readers.ts. Secrets are stored only as
 * SHA-256 hashes.
 */
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";
import { organisations } from "./search";

/** A writer: a person who signs in to the dashboard. Created on first sign-in. */
export const writers = sqliteTable("writers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Lower-cased e-mail address. */
  email: text("email").notNull().unique(),
  createdAt: text("created_at").notNull(),
});

/** A writer's session: the cookie holds the token, this row its SHA-256. Deleting rows signs out. */
export const writerSessions = sqliteTable(
  "writer_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    writerId: integer("writer_id").notNull().references(() => writers.id),
    createdAt: text("created_at").notNull(),
    /** Epoch milliseconds. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("writer_sessions_writer").on(t.writerId)],
);

/** Members of an organisation and their role: owner | admin | editor | viewer (worker/workspace/roles.ts). */
export const memberships = sqliteTable(
  "memberships",
  {
    organisationId: integer("organisation_id").notNull().references(() => organisations.id),
    writerId: integer("writer_id").notNull().references(() => writers.id),
    role: text("role").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.writerId] }), index("memberships_writer").on(t.writerId)],
);

/** Invitations by e-mail: accepted once through the link in the mail (7 days). */
export const invitations = sqliteTable(
  "invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organisationId: integer("organisation_id").notNull().references(() => organisations.id),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: integer("invited_by").references(() => writers.id),
    createdAt: text("created_at").notNull(),
    /** Epoch milliseconds. */
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
  },
  (t) => [index("invitations_org").on(t.organisationId)],
);

/**
 * Every change a person or token made (who, what, when, from which token). Kept one year: the scheduled handler
 * deletes older rows (worker/workspace/audit.ts).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    organisationId: integer("organisation_id"),
    portalId: integer("portal_id"),
    /** ISO 8601 instant. */
    at: text("at").notNull(),
    /** writer | token | admin | billing */
    actorType: text("actor_type").notNull(),
    /** The writer's e-mail, the token's name, "service admin" or "stripe". */
    actor: text("actor").notNull(),
    /** The portal token's id when a token made the change. */
    tokenId: integer("token_id"),
    /** A dotted verb: `portal.create`, `member.invite`, `token.create`, `api.publish`, `org.plan`... */
    action: text("action").notNull(),
    /** What was changed (a slug, an e-mail, a token name). */
    target: text("target"),
    /** JSON with the change's particulars (never a secret). */
    details: text("details"),
  },
  (t) => [index("audit_org_at").on(t.organisationId, t.at), index("audit_at").on(t.at)],
);

/** Stripe webhook events already applied (idempotency by event id). */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: text("received_at").notNull(),
});
