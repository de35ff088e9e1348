/**
 * @module D1 queries of the team side (issue 32): writers and their sessions, writers' magic links (rows of
 * `magic_links` without a portal), organisations with members, invitations and owned portals, scoped portal tokens,
 * the audit log and Stripe events. Checks that must not race (the last owner, a link used once) are single
 * conditional statements.
 */
import type { Role } from "../workspace/roles";

/** A writer (dashboard account). */
export interface Writer {
  id: number;
  email: string;
  /** Set when the session was opened by this organisation's SAML IdP: the session reaches it only. */
  ssoOrganisationId?: number | null;
}

/** An organisation row. `slug` is its id in URLs and answers. */
export interface OrgRow {
  id: number;
  slug: string;
  name: string;
  plan: string;
  trialEndsAt: string | null;
  createdAt: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** 1 when writers must sign in through the organisation's IdP (SQLite's boolean). */
  writerSsoRequired: number;
}

const ORG_COLUMNS = "id, slug, name, plan, trial_ends_at AS trialEndsAt, created_at AS createdAt, stripe_customer_id AS stripeCustomerId, stripe_subscription_id AS stripeSubscriptionId, writer_sso_required AS writerSsoRequired";

/** The writer of `email` (lower-cased), created on first use. */
export async function findOrCreateWriter(db: D1Database, email: string, now = new Date()): Promise<Writer> {
  const row = await db.prepare("INSERT INTO writers (email, created_at) VALUES (?1, ?2) ON CONFLICT(email) DO UPDATE SET email = excluded.email RETURNING id, email")
    .bind(email.toLowerCase(), now.toISOString()).first<Writer>();
  return row!;
}

/** Stores a writer's magic link (by its token's SHA-256; `portal_id` null marks it a writer's). */
export async function createWriterMagicLink(db: D1Database, link: { tokenHash: string; email: string; returnTo: string; expiresAt: number }): Promise<void> {
  await db.prepare("INSERT INTO magic_links (token_hash, portal_id, email, return_to, expires_at) VALUES (?, NULL, ?, ?, ?)")
    .bind(link.tokenHash, link.email, link.returnTo, link.expiresAt).run();
}

/** Unexpired, unused writer links for `email` (a bound on how many one address may be sent). */
export async function pendingWriterLinks(db: D1Database, email: string, nowMs: number): Promise<number> {
  const row = await db.prepare("SELECT count(*) AS n FROM magic_links WHERE portal_id IS NULL AND email = ? AND used_at IS NULL AND expires_at > ?").bind(email, nowMs).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Uses a writer's magic link once (atomic); undefined when unknown, used, expired or a reader's. */
export async function consumeWriterMagicLink(db: D1Database, tokenHash: string, nowMs: number): Promise<{ email: string; returnTo: string } | undefined> {
  const row = await db.prepare(
    "UPDATE magic_links SET used_at = ?2 WHERE token_hash = ?1 AND portal_id IS NULL AND used_at IS NULL AND expires_at > ?2 RETURNING email, return_to AS returnTo",
  ).bind(tokenHash, nowMs).first<{ email: string; returnTo: string }>();
  return row ?? undefined;
}

/** Stores a session (by the cookie token's SHA-256). */
export async function createWriterSession(db: D1Database, s: { tokenHash: string; writerId: number; expiresAt: number; organisationId?: number }, now = new Date()): Promise<void> {
  await db.prepare("INSERT INTO writer_sessions (token_hash, writer_id, created_at, expires_at, organisation_id) VALUES (?, ?, ?, ?, ?)").bind(s.tokenHash, s.writerId, now.toISOString(), s.expiresAt, s.organisationId ?? null).run();
}

/** The writer of a live session, or undefined. */
export async function writerOfSession(db: D1Database, tokenHash: string, nowMs: number): Promise<Writer | undefined> {
  const row = await db.prepare("SELECT w.id, w.email, s.organisation_id AS ssoOrganisationId FROM writer_sessions s JOIN writers w ON w.id = s.writer_id WHERE s.token_hash = ? AND s.expires_at > ?").bind(tokenHash, nowMs).first<Writer>();
  return row ?? undefined;
}

/** Ends one session, or (with `everywhere`) every session of its writer. */
export async function deleteWriterSessions(db: D1Database, target: { tokenHash: string } | { writerId: number }): Promise<void> {
  if ("tokenHash" in target) await db.prepare("DELETE FROM writer_sessions WHERE token_hash = ?").bind(target.tokenHash).run();
  else await db.prepare("DELETE FROM writer_sessions WHERE writer_id = ?").bind(target.writerId).run();
}

/** Creates an organisation with its first owner in one batch. @throws on a taken slug (UNIQUE). */
export async function createOrganisation(db: D1Database, org: { slug: string; name: string; ownerId: number; trialEndsAt: string }, now = new Date()): Promise<OrgRow> {
  const at = now.toISOString();
  const [inserted] = await db.batch([
    db.prepare(`INSERT INTO organisations (slug, name, plan, created_at, trial_ends_at) VALUES (?, ?, 'trial', ?, ?) RETURNING ${ORG_COLUMNS}`).bind(org.slug, org.name, at, org.trialEndsAt),
    db.prepare("INSERT INTO memberships (organisation_id, writer_id, role, created_at) VALUES ((SELECT id FROM organisations WHERE slug = ?), ?, 'owner', ?)").bind(org.slug, org.ownerId, at),
  ]);
  return (inserted!.results as OrgRow[])[0]!;
}

/** An organisation by slug. */
export async function findOrganisation(db: D1Database, slug: string): Promise<OrgRow | undefined> {
  return (await db.prepare(`SELECT ${ORG_COLUMNS} FROM organisations WHERE slug = ?`).bind(slug).first<OrgRow>()) ?? undefined;
}

/** An organisation by slug with `writerId`'s role in it (undefined for a non-member), in one read. */
export async function findOrganisationWithRole(db: D1Database, slug: string, writerId: number): Promise<(OrgRow & { role: Role | null }) | undefined> {
  const cols = ORG_COLUMNS.split(", ").map((c) => `o.${c}`).join(", ");
  return (await db.prepare(`SELECT ${cols}, m.role FROM organisations o LEFT JOIN memberships m ON m.organisation_id = o.id AND m.writer_id = ? WHERE o.slug = ?`).bind(writerId, slug).first<OrgRow & { role: Role | null }>()) ?? undefined;
}

/** An organisation by id. */
export async function findOrganisationById(db: D1Database, id: number): Promise<OrgRow | undefined> {
  return (await db.prepare(`SELECT ${ORG_COLUMNS} FROM organisations WHERE id = ?`).bind(id).first<OrgRow>()) ?? undefined;
}

/** An organisation by its Stripe customer id. */
export async function findOrganisationByCustomer(db: D1Database, customerId: string): Promise<OrgRow | undefined> {
  return (await db.prepare(`SELECT ${ORG_COLUMNS} FROM organisations WHERE stripe_customer_id = ?`).bind(customerId).first<OrgRow>()) ?? undefined;
}

/** The organisations a writer belongs to, with the writer's role in each. */
export async function organisationsOf(db: D1Database, writerId: number): Promise<Array<OrgRow & { role: Role }>> {
  const { results } = await db.prepare(`SELECT ${ORG_COLUMNS.split(", ").map((c) => `o.${c}`).join(", ")}, m.role FROM memberships m JOIN organisations o ON o.id = m.organisation_id WHERE m.writer_id = ? ORDER BY o.name`).bind(writerId).all<OrgRow & { role: Role }>();
  return results;
}

/**
 * The writer's role in the organisation with what `requireSsoSession` (worker/workspace/sso.ts) needs of it, in one
 * read; undefined for a non-member.
 */
export async function roleAndOrgIn(db: D1Database, orgId: number, writerId: number): Promise<{ role: Role; org: OrgRow } | undefined> {
  const cols = ORG_COLUMNS.split(", ").map((c) => `o.${c}`).join(", ");
  const row = await db.prepare(`SELECT ${cols}, m.role FROM memberships m JOIN organisations o ON o.id = m.organisation_id WHERE m.organisation_id = ? AND m.writer_id = ?`).bind(orgId, writerId).first<OrgRow & { role: Role }>();
  if (!row) return undefined;
  const { role, ...org } = row;
  return { role, org };
}

/** Sets whether the organisation's writers must sign in through its IdP. */
export async function setWriterSsoRequired(db: D1Database, orgId: number, required: boolean): Promise<void> {
  await db.prepare("UPDATE organisations SET writer_sso_required = ? WHERE id = ?").bind(required ? 1 : 0, orgId).run();
}

/** The writer's role in the organisation, or undefined for a non-member. */
export async function roleIn(db: D1Database, orgId: number, writerId: number): Promise<Role | undefined> {
  const row = await db.prepare("SELECT role FROM memberships WHERE organisation_id = ? AND writer_id = ?").bind(orgId, writerId).first<{ role: Role }>();
  return row?.role;
}

/**
 * Moves an organisation's plan, trial end and billing ids, and mirrors plan and trial end onto the portals it owns
 * (reader pages read them from the portal row), in one batch.
 */
export async function updateOrganisationPlan(db: D1Database, orgId: number, patch: { plan?: string; trialEndsAt?: string | null; stripeCustomerId?: string; stripeSubscriptionId?: string | null }): Promise<OrgRow> {
  const sets: string[] = [];
  const values: unknown[] = [];
  if (patch.plan !== undefined) (sets.push("plan = ?"), values.push(patch.plan));
  if (patch.trialEndsAt !== undefined) (sets.push("trial_ends_at = ?"), values.push(patch.trialEndsAt));
  if (patch.stripeCustomerId !== undefined) (sets.push("stripe_customer_id = ?"), values.push(patch.stripeCustomerId));
  if (patch.stripeSubscriptionId !== undefined) (sets.push("stripe_subscription_id = ?"), values.push(patch.stripeSubscriptionId));
  if (sets.length) {
    await db.batch([
      db.prepare(`UPDATE organisations SET ${sets.join(", ")} WHERE id = ?`).bind(...values, orgId),
      db.prepare("UPDATE portals SET plan = (SELECT plan FROM organisations WHERE id = ?1), trial_ends_at = (SELECT trial_ends_at FROM organisations WHERE id = ?1) WHERE organisation_id = ?1").bind(orgId),
    ]);
  }
  return (await findOrganisationById(db, orgId))!;
}

/** Marks an existing portal as owned by the organisation (plan mirrored) and a member of its search group. */
export async function adoptPortal(db: D1Database, orgId: number, portalId: number): Promise<void> {
  await db.batch([
    db.prepare("UPDATE portals SET organisation_id = ?1, plan = (SELECT plan FROM organisations WHERE id = ?1), trial_ends_at = (SELECT trial_ends_at FROM organisations WHERE id = ?1) WHERE id = ?2").bind(orgId, portalId),
    db.prepare("INSERT INTO organisation_portals (organisation_id, portal_id) VALUES (?, ?) ON CONFLICT DO NOTHING").bind(orgId, portalId),
  ]);
}

/** A portal as the workspace lists it. */
export interface OrgPortal {
  id: number;
  slug: string;
  name: string;
  createdAt: string;
}

/** The portals an organisation owns. */
export async function portalsOfOrganisation(db: D1Database, orgId: number): Promise<OrgPortal[]> {
  const { results } = await db.prepare("SELECT id, slug, name, created_at AS createdAt FROM portals WHERE organisation_id = ? ORDER BY slug").bind(orgId).all<OrgPortal>();
  return results;
}

/** A member as listed. */
export interface Member {
  writerId: number;
  email: string;
  role: Role;
  since: string;
}

/** The organisation's members. */
export async function membersOf(db: D1Database, orgId: number): Promise<Member[]> {
  const { results } = await db.prepare("SELECT m.writer_id AS writerId, w.email, m.role, m.created_at AS since FROM memberships m JOIN writers w ON w.id = m.writer_id WHERE m.organisation_id = ? ORDER BY w.email").bind(orgId).all<Member>();
  return results;
}

/** E-mail addresses of the organisation's owners. */
export async function ownerEmails(db: D1Database, orgId: number): Promise<string[]> {
  return (await membersOf(db, orgId)).filter((m) => m.role === "owner").map((m) => m.email);
}

/**
 * Changes a member's role unless that would leave the organisation without an owner (one statement, so two
 * owners demoting each other at once cannot both succeed). Returns "changed", "not-member" or "last-owner".
 */
export async function setMemberRole(db: D1Database, orgId: number, writerId: number, role: Role): Promise<"changed" | "not-member" | "last-owner"> {
  const row = await db.prepare(
    "UPDATE memberships SET role = ?3 WHERE organisation_id = ?1 AND writer_id = ?2 AND (role != 'owner' OR ?3 = 'owner' OR (SELECT count(*) FROM memberships WHERE organisation_id = ?1 AND role = 'owner') > 1) RETURNING role",
  ).bind(orgId, writerId, role).first();
  if (row) return "changed";
  return (await roleIn(db, orgId, writerId)) ? "last-owner" : "not-member";
}

/** Removes a member (leaving, or removed) unless they are the last owner; same outcomes as {@link setMemberRole}. */
export async function removeMember(db: D1Database, orgId: number, writerId: number): Promise<"changed" | "not-member" | "last-owner"> {
  const row = await db.prepare(
    "DELETE FROM memberships WHERE organisation_id = ?1 AND writer_id = ?2 AND (role != 'owner' OR (SELECT count(*) FROM memberships WHERE organisation_id = ?1 AND role = 'owner') > 1) RETURNING role",
  ).bind(orgId, writerId).first();
  if (row) return "changed";
  return (await roleIn(db, orgId, writerId)) ? "last-owner" : "not-member";
}

/** An invitation as listed (no token). */
export interface Invitation {
  id: number;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: number;
}

/** Stores an invitation (by its token's SHA-256). */
export async function createInvitation(db: D1Database, inv: { orgId: number; email: string; role: Role; tokenHash: string; invitedBy: number | null; expiresAt: number }, now = new Date()): Promise<number> {
  const row = await db.prepare("INSERT INTO invitations (organisation_id, email, role, token_hash, invited_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
    .bind(inv.orgId, inv.email, inv.role, inv.tokenHash, inv.invitedBy, now.toISOString(), inv.expiresAt).first<{ id: number }>();
  return row!.id;
}

/** Pending (unaccepted, unexpired) invitations of an organisation. */
export async function pendingInvitations(db: D1Database, orgId: number, nowMs: number): Promise<Invitation[]> {
  const { results } = await db.prepare("SELECT id, email, role, created_at AS createdAt, expires_at AS expiresAt FROM invitations WHERE organisation_id = ? AND accepted_at IS NULL AND expires_at > ? ORDER BY id").bind(orgId, nowMs).all<Invitation>();
  return results;
}

/** Withdraws a pending invitation of `orgId` (its link stops working); undefined when none is pending with that id. */
export async function revokeInvitation(db: D1Database, orgId: number, id: number): Promise<{ email: string; role: Role } | undefined> {
  const row = await db.prepare("DELETE FROM invitations WHERE id = ? AND organisation_id = ? AND accepted_at IS NULL RETURNING email, role").bind(id, orgId).first<{ email: string; role: Role }>();
  return row ?? undefined;
}

/**
 * Accepts an invitation once (atomic) and makes its addressee a member with the invited role (kept if they are one
 * already). Returns the organisation's slug and the writer, or undefined for an unknown, used or expired link.
 */
export async function acceptInvitation(db: D1Database, tokenHash: string, now = new Date()): Promise<{ org: OrgRow; writer: Writer; role: Role } | undefined> {
  const inv = await db.prepare("UPDATE invitations SET accepted_at = ?2 WHERE token_hash = ?1 AND accepted_at IS NULL AND expires_at > ?3 RETURNING organisation_id AS orgId, email, role")
    .bind(tokenHash, now.toISOString(), now.getTime()).first<{ orgId: number; email: string; role: Role }>();
  if (!inv) return undefined;
  const writer = await findOrCreateWriter(db, inv.email, now);
  await db.prepare("INSERT INTO memberships (organisation_id, writer_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING").bind(inv.orgId, writer.id, inv.role, now.toISOString()).run();
  return { org: (await findOrganisationById(db, inv.orgId))!, writer, role: inv.role };
}

/** A portal token as listed: never the token or its hash. */
export interface TokenView {
  id: number;
  portal: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

interface TokenRow {
  id: number;
  portal: string;
  name: string;
  scopes: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  portalId: number;
}

const TOKEN_SELECT = "SELECT t.id, p.slug AS portal, t.name, t.scopes, t.created_at AS createdAt, t.expires_at AS expiresAt, t.last_used_at AS lastUsedAt, t.portal_id AS portalId FROM portal_tokens t JOIN portals p ON p.id = t.portal_id";

function tokenView(row: TokenRow): TokenView & { portalId: number } {
  return { ...row, scopes: JSON.parse(row.scopes) as string[] };
}

/** Stores a scoped token (hash only) and returns its view. */
export async function insertScopedToken(db: D1Database, t: { portalId: number; tokenHash: string; name: string; scopes: string[]; expiresAt: string | null; createdBy: number | null }, now = new Date()): Promise<TokenView> {
  const row = await db.prepare("INSERT INTO portal_tokens (portal_id, token_hash, created_at, name, scopes, expires_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id")
    .bind(t.portalId, t.tokenHash, now.toISOString(), t.name, JSON.stringify(t.scopes), t.expiresAt, t.createdBy).first<{ id: number }>();
  return (await findTokenById(db, row!.id))!;
}

/** A portal's tokens, newest first. */
export async function tokensOfPortal(db: D1Database, portalId: number): Promise<TokenView[]> {
  const { results } = await db.prepare(`${TOKEN_SELECT} WHERE t.portal_id = ? ORDER BY t.id DESC`).bind(portalId).all<TokenRow>();
  return results.map(tokenView);
}

/** One token by id (with its portal's id). */
export async function findTokenById(db: D1Database, id: number): Promise<(TokenView & { portalId: number }) | undefined> {
  const row = await db.prepare(`${TOKEN_SELECT} WHERE t.id = ?`).bind(id).first<TokenRow>();
  return row ? tokenView(row) : undefined;
}

/** Revokes a token. */
export async function deleteToken(db: D1Database, id: number): Promise<void> {
  await db.prepare("DELETE FROM portal_tokens WHERE id = ?").bind(id).run();
}

/** Records a token's use at most once a minute (one conditional write). */
export async function touchToken(db: D1Database, id: number, now = new Date()): Promise<void> {
  await db.prepare("UPDATE portal_tokens SET last_used_at = ?2 WHERE id = ?1 AND (last_used_at IS NULL OR last_used_at < ?3)")
    .bind(id, now.toISOString(), new Date(now.getTime() - 60_000).toISOString()).run();
}

/** One audit entry to write. */
export interface AuditEntry {
  organisationId: number | null;
  portalId: number | null;
  actorType: "writer" | "token" | "admin" | "billing";
  actor: string;
  tokenId?: number | null;
  action: string;
  target?: string | null;
  details?: Record<string, unknown>;
}

/** An audit entry as read back. */
export interface AuditRow {
  id: number;
  at: string;
  actorType: string;
  actor: string;
  tokenId: number | null;
  action: string;
  target: string | null;
  portal: string | null;
  details: Record<string, unknown> | null;
}

/** Appends an audit entry. */
export async function insertAudit(db: D1Database, entry: AuditEntry, now = new Date()): Promise<void> {
  await db.prepare("INSERT INTO audit_log (organisation_id, portal_id, at, actor_type, actor, token_id, action, target, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(entry.organisationId, entry.portalId, now.toISOString(), entry.actorType, entry.actor, entry.tokenId ?? null, entry.action, entry.target ?? null, entry.details ? JSON.stringify(entry.details) : null).run();
}

/** An organisation's audit entries in [from, to), newest first, at most `limit`. */
export async function listAudit(db: D1Database, orgId: number, range: { from: string; to: string; limit: number }): Promise<AuditRow[]> {
  const { results } = await db.prepare(
    "SELECT a.id, a.at, a.actor_type AS actorType, a.actor, a.token_id AS tokenId, a.action, a.target, p.slug AS portal, a.details FROM audit_log a LEFT JOIN portals p ON p.id = a.portal_id WHERE a.organisation_id = ? AND a.at >= ? AND a.at < ? ORDER BY a.at DESC, a.id DESC LIMIT ?",
  ).bind(orgId, range.from, range.to, range.limit).all<Omit<AuditRow, "details"> & { details: string | null }>();
  return results.map((r) => ({ ...r, details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null }));
}

/** Deletes audit entries older than `before` (ISO 8601); returns how many. */
export async function pruneAudit(db: D1Database, before: string): Promise<number> {
  const res = await db.prepare("DELETE FROM audit_log WHERE at < ?").bind(before).run();
  return res.meta.changes ?? 0;
}

/** Whether a Stripe event was applied before. */
export async function stripeEventSeen(db: D1Database, id: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 FROM stripe_events WHERE id = ?").bind(id).first()) !== null;
}

/** Records a Stripe event id; false when it was recorded before (a replay). */
export async function recordStripeEvent(db: D1Database, id: string, type: string, now = new Date()): Promise<boolean> {
  const row = await db.prepare("INSERT INTO stripe_events (id, type, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id").bind(id, type, now.toISOString()).first();
  return row !== null;
}
