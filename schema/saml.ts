/** @module SAML SSO: a portal's identity provider (from its metadata) and the AuthnRequests awaiting an answer. */
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/** One identity provider per portal, set by `PUT /v1/portal/sso` with the IdP's metadata XML. */
export const samlIdps = sqliteTable("saml_idps", {
  portalId: integer("portal_id").primaryKey().references(() => portals.id),
  /** The IdP entityID: every Response/Assertion Issuer must equal it. */
  entityId: text("entity_id").notNull(),
  /** HTTP-Redirect SingleSignOnService Location. */
  ssoUrl: text("sso_url").notNull(),
  /** JSON array of PEM signing certificates. */
  certificates: text("certificates").notNull(),
  /** JSON AttributeMapping (worker/access/saml/attributes.ts). */
  attributeMapping: text("attribute_mapping").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * AuthnRequests we issued and not yet seen answered: the ACS accepts a Response only when its InResponseTo is
 * here, and deletes the row in the same statement (single use; a replay finds nothing).
 */
export const samlRequests = sqliteTable(
  "saml_requests",
  {
    /** The AuthnRequest ID (`_` + 32 hex). */
    id: text("id").primaryKey(),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    /** Where to land after sign-in (a same-portal path, checked again when used). */
    returnTo: text("return_to").notNull(),
    /** ISO 8601 instants. */
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("saml_requests_expiry").on(t.expiresAt)],
);
