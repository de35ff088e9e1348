/**
 * @module D1 rows of writers' SAML SSO (issue 32): an organisation's IdP, the AuthnRequests awaiting an answer
 * (consumed once, in one statement) and the assertion IDs already used. Same shape as the readers' rows
 * (worker/store/saml.ts), keyed by organisation instead of portal.
 */
import type { IdpMetadata } from "../access/saml/metadata";
import type { WriterSsoSettings } from "../workspace/sso";
import type { Role } from "../workspace/roles";

/** How long an AuthnRequest may wait for its answer. */
export const WRITER_SAML_REQUEST_TTL_MS = 10 * 60_000;

/** An organisation's configured IdP for writers. */
export interface OrgIdpConfig extends IdpMetadata {
  settings: WriterSsoSettings;
  updatedAt: string;
}

interface IdpRow {
  entityId: string;
  ssoUrl: string;
  certificates: string;
  settings: string;
  updatedAt: string;
}

/** The IdP of organisation `orgId`, or undefined when none is set (a malformed row reads as none). */
export async function getOrgIdp(db: D1Database, orgId: number): Promise<OrgIdpConfig | undefined> {
  const row = await db.prepare("SELECT entity_id AS entityId, sso_url AS ssoUrl, certificates, settings, updated_at AS updatedAt FROM org_saml_idps WHERE organisation_id = ?").bind(orgId).first<IdpRow>();
  if (!row) return undefined;
  try {
    return { entityId: row.entityId, ssoUrl: row.ssoUrl, certificates: JSON.parse(row.certificates), settings: JSON.parse(row.settings), updatedAt: row.updatedAt };
  } catch {
    return undefined;
  }
}

/**
 * Sets (or replaces) the IdP of `orgId` and ends the sessions the previous one opened (a new IdP or key must not
 * leave the old one's sessions running), in one batch.
 */
export async function putOrgIdp(db: D1Database, orgId: number, meta: IdpMetadata, settings: WriterSsoSettings, now = new Date()): Promise<OrgIdpConfig> {
  const updatedAt = now.toISOString();
  await db.batch([
    db.prepare(
      "INSERT INTO org_saml_idps (organisation_id, entity_id, sso_url, certificates, settings, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) " +
      "ON CONFLICT (organisation_id) DO UPDATE SET entity_id = ?2, sso_url = ?3, certificates = ?4, settings = ?5, updated_at = ?6",
    ).bind(orgId, meta.entityId, meta.ssoUrl, JSON.stringify(meta.certificates), JSON.stringify(settings), updatedAt),
    db.prepare("DELETE FROM writer_sessions WHERE organisation_id = ?").bind(orgId),
  ]);
  return { ...meta, settings, updatedAt };
}

/** Removes the IdP of `orgId`, its pending requests and the sessions it opened; true when there was one. */
export async function deleteOrgIdp(db: D1Database, orgId: number): Promise<boolean> {
  const [, , gone] = await db.batch([
    db.prepare("DELETE FROM org_saml_requests WHERE organisation_id = ?").bind(orgId),
    db.prepare("DELETE FROM writer_sessions WHERE organisation_id = ?").bind(orgId),
    db.prepare("DELETE FROM org_saml_idps WHERE organisation_id = ? RETURNING organisation_id").bind(orgId),
    // Without an IdP nobody could sign in as required: the requirement goes with it.
    db.prepare("UPDATE organisations SET writer_sso_required = 0 WHERE id = ?").bind(orgId),
  ]);
  return (gone?.results.length ?? 0) > 0;
}

/** Records an AuthnRequest about to be sent, sweeping expired ones. */
export async function recordOrgSamlRequest(db: D1Database, orgId: number, id: string, returnTo: string, now = new Date()): Promise<void> {
  await db.batch([
    db.prepare("DELETE FROM org_saml_requests WHERE expires_at <= ?").bind(now.toISOString()),
    db.prepare("INSERT INTO org_saml_requests (id, organisation_id, return_to, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
      .bind(id, orgId, returnTo, now.toISOString(), new Date(now.getTime() + WRITER_SAML_REQUEST_TTL_MS).toISOString()),
  ]);
}

/** Consumes request `id` of `orgId` once (DELETE … RETURNING): a replay, another organisation's or an expired one gets undefined. */
export async function consumeOrgSamlRequest(db: D1Database, orgId: number, id: string, now = new Date()): Promise<{ returnTo: string } | undefined> {
  const row = await db.prepare("DELETE FROM org_saml_requests WHERE id = ? AND organisation_id = ? AND expires_at > ? RETURNING return_to AS returnTo")
    .bind(id, orgId, now.toISOString()).first<{ returnTo: string }>();
  return row ?? undefined;
}

/** Marks an assertion used; false when it was already (a replay). Sweeps expired marks of the organisation. */
export async function markOrgAssertionUsed(db: D1Database, orgId: number, assertionId: string, expiresAt: number, nowMs: number): Promise<boolean> {
  const [inserted] = await db.batch([
    db.prepare("INSERT INTO org_saml_assertions (organisation_id, assertion_id, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING assertion_id").bind(orgId, assertionId, expiresAt),
    db.prepare("DELETE FROM org_saml_assertions WHERE organisation_id = ? AND expires_at < ?").bind(orgId, nowMs),
  ]);
  return inserted!.results.length === 1;
}

/** Adds `writerId` to `orgId` with `role` unless already a member; true when added. */
export async function joinOrganisation(db: D1Database, orgId: number, writerId: number, role: Role, now = new Date()): Promise<boolean> {
  const row = await db.prepare("INSERT INTO memberships (organisation_id, writer_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING role")
    .bind(orgId, writerId, role, now.toISOString()).first();
  return row !== null;
}

/** Sets a non-owner member's role (owners are never changed by an IdP); true when changed. */
export async function setRoleFromIdp(db: D1Database, orgId: number, writerId: number, role: Role): Promise<boolean> {
  const row = await db.prepare("UPDATE memberships SET role = ? WHERE organisation_id = ? AND writer_id = ? AND role != 'owner' RETURNING role").bind(role, orgId, writerId).first();
  return row !== null;
}
