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
    /**
     * Set for a session opened by an organisation's SAML identity provider: the session reaches that organisation
     * only (an IdP vouches for its own people, never for what the same address holds elsewhere).
     */
    organisationId: integer("organisation_id").references(() => organisations.id),
  },
  (t) => [index("writer_sessions_writer").on(t.writerId), index("writer_sessions_org").on(t.organisationId)],
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

/**
 * An Enterprise organisation's SAML identity provider for writers (`PUT /v1/orgs/{org}/sso`), from its metadata.
 * Readers' SSO is per portal (schema/saml.ts); this one signs writers in to the dashboard.
 */
export const orgSamlIdps = sqliteTable("org_saml_idps", {
  organisationId: integer("organisation_id").primaryKey().references(() => organisations.id),
  /** The IdP entityID: every Response/Assertion Issuer must equal it. */
  entityId: text("entity_id").notNull(),
  /** HTTP-Redirect SingleSignOnService Location. */
  ssoUrl: text("sso_url").notNull(),
  /** JSON array of PEM signing certificates. */
  certificates: text("certificates").notNull(),
  /** JSON WriterSsoSettings (worker/workspace/sso.ts): email and role attributes, the default role. */
  settings: text("settings").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** Writers' AuthnRequests awaiting an answer (single use, 10 minutes), as `saml_requests` is for readers. */
export const orgSamlRequests = sqliteTable(
  "org_saml_requests",
  {
    /** The AuthnRequest ID (`_` + 32 hex). */
    id: text("id").primaryKey(),
    organisationId: integer("organisation_id").notNull().references(() => organisations.id),
    /** Where to land after sign-in (a path under /app). */
    returnTo: text("return_to").notNull(),
    /** ISO 8601 instants. */
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("org_saml_requests_expiry").on(t.expiresAt)],
);

/** Assertion IDs that opened a writer session, kept until the assertion could no longer be accepted (no replay). */
export const orgSamlAssertions = sqliteTable(
  "org_saml_assertions",
  {
    organisationId: integer("organisation_id").notNull().references(() => organisations.id),
    assertionId: text("assertion_id").notNull(),
    /** Epoch milliseconds. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.assertionId] }), index("org_saml_assertions_expiry").on(t.expiresAt)],
);
