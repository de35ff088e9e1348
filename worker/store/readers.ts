/**
 * @module D1 side of readers and access: a portal's access settings and secrets, its session version (revocation),
 * magic links (single use), JWTs already used (replay) and the embedded mailer's outbox.
 */
import { verifyPassword } from "../access/password";
import { effectivePolicy, type AccessPolicy, type AccessSettings, type ParsedAccess } from "../access/policy";
import type { NavGroup } from "../content/types";
import { eq, sql } from "drizzle-orm";
import { contentLive, contentReleases, portalAccess, portals } from "../../schema";
import { getDb, type Db } from "./db";

/** A portal's effective access policy and the secrets its ways in verify against. */
export interface PortalAccess {
  policy: AccessPolicy;
  passwordHash: string | null;
  jwtSecret: string | null;
  /** portico.yaml's navigation groups (for sections given as a group). */
  navigation: NavGroup[];
  /** The portal's session version: a session sealed under another one is void (access/session.ts). */
  sessionVersion: number;
}

/** The D1 inputs of {@link PortalAccess}: the API-set row's fields and the live release's portico.yaml parts (JSON text). */
export interface AccessRow {
  settings: string | null;
  passwordHash: string | null;
  jwtSecret: string | null;
  yamlAccess: string | null;
  yamlAudiences: string | null;
  navigation: string | null;
  /** portals.session_version (absent: 0). */
  sessionVersion?: number | null;
}

function json<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * The query behind {@link loadAccess}: the API-set row, the session version and the live release's portico.yaml
 * `access`, `audiences` and `navigation` (JSON text), one row (a drizzle query, so a reader page can put it in its
 * own D1 batch: store/reader.ts).
 */
export function accessQuery(db: Db, portalId: number) {
  return db
    .select({
      sessionVersion: portals.sessionVersion,
      settings: portalAccess.settings,
      passwordHash: portalAccess.passwordHash,
      jwtSecret: portalAccess.jwtSecret,
      yamlAccess: sql<string | null>`json_extract(${contentReleases.config}, '$.access')`,
      yamlAudiences: sql<string | null>`json_extract(${contentReleases.config}, '$.audiences')`,
      navigation: sql<string | null>`json_extract(${contentReleases.config}, '$.navigation')`,
    })
    .from(portals)
    .leftJoin(portalAccess, eq(portalAccess.portalId, portals.id))
    .leftJoin(contentLive, eq(contentLive.portalId, portals.id))
    .leftJoin(contentReleases, eq(contentReleases.id, contentLive.releaseId))
    .where(eq(portals.id, portalId))
    .limit(1);
}

/** One query ({@link accessQuery}): a portal's effective access. */
export async function loadAccess(db: D1Database, portalId: number): Promise<PortalAccess> {
  return accessFromRow((await accessQuery(getDb(db), portalId))[0]);
}

/** The effective access of a portal from its D1 inputs (none: the defaults, as a portal without settings). */
export function accessFromRow(row: AccessRow | null | undefined): PortalAccess {
  const fromApi = json<Partial<AccessSettings> | undefined>(row?.settings ?? null, undefined);
  const fromYaml = json<Partial<AccessSettings> | undefined>(row?.yamlAccess ?? null, undefined);
  const passwordHash = row?.passwordHash ?? null;
  const jwtSecret = row?.jwtSecret ?? null;
  return {
    policy: effectivePolicy(fromYaml, fromApi, { hasPassword: passwordHash !== null, hasJwtSecret: jwtSecret !== null }, json<string[]>(row?.yamlAudiences ?? null, [])),
    passwordHash, jwtSecret, navigation: json<NavGroup[]>(row?.navigation ?? null, []),
    sessionVersion: row?.sessionVersion ?? 0,
  };
}

/**
 * Writes a PATCHed `access` block: its settings over the stored ones (fields it leaves out keep their value), the
 * password hash and JWT secret when given (`null` removes them). When anything really changed (a settings field, the
 * password: checked against the stored hash, the JWT secret), the portal's session version is bumped in the same
 * batch: who may read what, or how readers prove it, has changed, so every reader signs in again. A PATCH that
 * repeats what is stored (a deploy script setting the same password) signs nobody out.
 */
export async function saveAccess(db: D1Database, portalId: number, parsed: ParsedAccess, passwordHash: string | null | undefined, now = new Date()): Promise<void> {
  const current = await db.prepare("SELECT settings, password_hash AS passwordHash, jwt_secret AS jwtSecret FROM portal_access WHERE portal_id = ?").bind(portalId)
    .first<{ settings: string; passwordHash: string | null; jwtSecret: string | null }>();
  const settings = { ...json<Partial<AccessSettings>>(current?.settings ?? null, {}), ...parsed.settings };
  const stored = current?.passwordHash ?? null;
  const changed = JSON.stringify(settings) !== (current?.settings ?? "{}")
    || (parsed.password === null && stored !== null)
    || (typeof parsed.password === "string" && !(stored !== null && (await verifyPassword(parsed.password, stored))))
    || (parsed.jwtSecret !== undefined && parsed.jwtSecret !== (current?.jwtSecret ?? null));
  await db.batch([
    db.prepare(
      `INSERT INTO portal_access (portal_id, settings, password_hash, jwt_secret, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (portal_id) DO UPDATE SET settings = ?2, password_hash = ?3, jwt_secret = ?4, updated_at = ?5`,
    ).bind(
      portalId, JSON.stringify(settings),
      passwordHash === undefined ? (current?.passwordHash ?? null) : passwordHash,
      parsed.jwtSecret === undefined ? (current?.jwtSecret ?? null) : parsed.jwtSecret,
      now.toISOString(),
    ),
    ...(changed ? [bumpSessionVersionStatement(db, portalId)] : []),
  ]);
}

/** The statement that voids every reader session of `portalId` (batched with the change that calls for it). */
export function bumpSessionVersionStatement(db: D1Database, portalId: number): D1PreparedStatement {
  return db.prepare("UPDATE portals SET session_version = session_version + 1 WHERE id = ?").bind(portalId);
}

/** Voids every reader session of `portalId` ("sign every reader out", a new IdP). */
export async function bumpSessionVersion(db: D1Database, portalId: number): Promise<void> {
  await bumpSessionVersionStatement(db, portalId).run();
}

/** Stores a magic link (by its token's SHA-256). */
export async function createMagicLink(db: D1Database, link: { tokenHash: string; portalId: number; email: string; returnTo: string; expiresAt: number }): Promise<void> {
  await db.prepare("INSERT INTO magic_links (token_hash, portal_id, email, return_to, expires_at) VALUES (?, ?, ?, ?, ?)")
    .bind(link.tokenHash, link.portalId, link.email, link.returnTo, link.expiresAt).run();
}

/** Uses a magic link once: atomically marks it used if it is this portal's, unused and unexpired; else undefined. */
export async function consumeMagicLink(db: D1Database, portalId: number, tokenHash: string, nowMs: number): Promise<{ email: string; returnTo: string } | undefined> {
  const row = await db.prepare(
    "UPDATE magic_links SET used_at = ?3 WHERE token_hash = ?2 AND portal_id = ?1 AND used_at IS NULL AND expires_at > ?3 RETURNING email, return_to AS returnTo",
  ).bind(portalId, tokenHash, nowMs).first<{ email: string; returnTo: string }>();
  return row ?? undefined;
}

/** Marks a JWT used; false when it already was (a replay). Rows of expired tokens are pruned. */
export async function markTokenUsed(db: D1Database, portalId: number, key: string, expiresAt: number, nowMs: number): Promise<boolean> {
  const [inserted] = await db.batch([
    db.prepare("INSERT INTO used_tokens (portal_id, token_key, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING token_key").bind(portalId, key, expiresAt),
    db.prepare("DELETE FROM used_tokens WHERE portal_id = ? AND expires_at < ?").bind(portalId, nowMs),
  ]);
  return inserted.results.length === 1;
}

/** One message of the outbox. */
export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** Stores a message in the embedded mailer's outbox. */
export async function addToOutbox(db: D1Database, portalId: number | null, message: { to: string; subject: string; text: string }, now = new Date()): Promise<void> {
  await db.prepare("INSERT INTO outbox (portal_id, to_address, subject, text, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(portalId, message.to, message.subject, message.text, now.toISOString()).run();
}

/** The newest `limit` outbox messages to one address (any portal's and the workspace's). */
export async function listOutboxTo(db: D1Database, to: string, limit = 50): Promise<OutboxMessage[]> {
  const { results } = await db.prepare("SELECT id, to_address AS \"to\", subject, text, created_at AS createdAt FROM outbox WHERE to_address = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?")
    .bind(to, limit).all<OutboxMessage>();
  return results;
}

/** The newest `limit` outbox messages of a portal. */
export async function listOutbox(db: D1Database, portalId: number, limit = 50): Promise<OutboxMessage[]> {
  const { results } = await db.prepare("SELECT id, to_address AS \"to\", subject, text, created_at AS createdAt FROM outbox WHERE portal_id = ? ORDER BY id DESC LIMIT ?")
    .bind(portalId, limit).all<OutboxMessage>();
  return results;
}
