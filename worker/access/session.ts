/**
 * @module Reader sessions: the cookie every way in (password, magic link, JWT, SAML) ends with. The cookie holds
 * the `ReaderIdentity` sealed with jose `EncryptJWT` (dir + A256GCM; key = SHA-256 of the `SESSION_SECRET`
 * secret), bound to one portal (`aud` = the portal's id) and expiring after `SESSION_TTL_SECONDS`. HttpOnly,
 * SameSite=Lax, Path `/p/{portal}/` (`/` on the portal's custom hostname; never a Domain attribute, so the cookie
 * stays on the host that set it), Secure unless the request is to plain-http localhost.
 *
 * Revocation (a sealed cookie is otherwise good until it expires, wherever it was copied to): the cookie carries
 * the portal's session version at sign-in (`pv`) and its issue instant in milliseconds (`iam`). Per request it
 * must match the portal's current version (read in the same D1 query as the access settings, so no extra read)
 * and be newer than its reader's revocation mark in the SESSIONS KV namespace (access/session-revocation.ts).
 * Sign-out sets that mark; a change of access settings or secrets, a new IdP and "sign every reader out" bump
 * the version. The IdP's SessionNotOnOrAfter bounds the cookie's life.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { EncryptJWT, jwtDecrypt } from "jose";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import type { PortalRow } from "../store/portals";
import { portalCookiePath } from "../render/shell/base-path";

/** What a session needs of a portal: its id (sessions are sealed for one portal) and slug (the cookie path). */
type SessionPortal = Pick<PortalRow, "id" | "slug" | "hostname">;
/** What sealing a session needs besides: the portal's current session version. */
type SealingPortal = SessionPortal & Pick<PortalRow, "sessionVersion">;
import type { ReaderIdentity, SignInMethod } from "./identity";
import { safeReturnPath } from "./return-to";
import { markReaderRevoked, readerRevocationKey, revokedBefore } from "./session-revocation";

/** Name of the session cookie. */
export const SESSION_COOKIE = "portico_session";
/** How long a session lasts from sign-in: 12 hours. */
export const SESSION_TTL_SECONDS = 12 * 3600;
const ISSUER = "portico";
const METHODS: readonly SignInMethod[] = ["password", "magic-link", "jwt", "saml"];
/** A sealed identity is far below this; anything larger is not ours. */
const MAX_COOKIE_CHARS = 3800;

const keyCache = new Map<string, Uint8Array>();
/** A cookie opened: who, and the facts its revocation is checked against. */
export interface OpenedSession {
  identity: ReaderIdentity;
  /** The portal's session version it was sealed under. */
  portalVersion: number;
  /** When it was issued, epoch ms. */
  issuedAtMs: number;
  /** Its reader's revocation mark (epoch ms; 0 when none): sessions issued at or before it are void. */
  revokedBeforeMs: number;
}

/** Opened cookies per isolate (token → identity and claims): a reader's next pages skip the decryption. */
const opened = new Map<string, { session: Omit<OpenedSession, "revokedBeforeMs">; revocationKey: string; portalId: number; key: Uint8Array; expMs: number }>();
const MAX_OPENED = 512;

/** The 32-byte content key for `secret` (cached per isolate), or null when the secret is unset or too short. */
async function sessionKey(secret: string | undefined): Promise<Uint8Array | null> {
  if (!secret || secret.length < 16) return null;
  let key = keyCache.get(secret);
  if (!key) {
    key = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`portico-session:${secret}`)));
    keyCache.set(secret, key);
  }
  return key;
}

function cookiePath(portal: SessionPortal): string {
  return portalCookiePath(portal);
}

/** Secure everywhere but plain-http localhost (npm start), where browsers would drop a Secure cookie. */
export function secure(c: Context<AppEnv>): boolean {
  const url = new URL(c.req.url);
  return !(url.protocol === "http:" && (url.hostname === "localhost" || url.hostname.endsWith(".localhost") || url.hostname === "127.0.0.1" || url.hostname === "[::1]"));
}

/**
 * Seals `identity` into the session cookie of `portal` (under its current session version) and answers 303 to
 * `returnTo` when it is a path of this portal, else to the portal home. The session lasts SESSION_TTL_SECONDS, or
 * less when `notAfter` (the IdP's SessionNotOnOrAfter) comes first. `Cache-Control: no-store` so no cache keeps
 * the Set-Cookie.
 * @throws ApiError 503 when `SESSION_SECRET` is not configured (no session can be trusted without it); 403 when
 * `notAfter` has already passed.
 */
export async function establishSession(c: Context<AppEnv>, portal: SealingPortal, identity: ReaderIdentity, returnTo: string, options: { notAfter?: Date } = {}): Promise<Response> {
  const key = await sessionKey(c.env.SESSION_SECRET);
  if (!key) throw new ApiError(503, "sessions-unconfigured", "reader sign-in needs the SESSION_SECRET secret (at least 16 characters)");
  const now = Date.now();
  const expSeconds = Math.floor(Math.min(now + SESSION_TTL_SECONDS * 1000, options.notAfter?.getTime() ?? Infinity) / 1000);
  if (expSeconds * 1000 <= now) throw new ApiError(403, "session-ended", "the identity provider's session for this sign-in has already ended (SessionNotOnOrAfter): sign in again");
  // Issued after the reader's last sign-out even where this machine's clock lags the one that recorded it.
  const issuedAtMs = Math.max(now, (await revokedBefore(c.env.SESSIONS, portal.id, await readerRevocationKey(identity.readerId))) + 1);
  const token = await new EncryptJWT({
    rid: identity.readerId,
    ...(identity.email ? { email: identity.email } : {}),
    aud_: identity.audiences,
    vars: identity.variables,
    m: identity.method,
    pv: portal.sessionVersion,
    iam: issuedAtMs,
  })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuer(ISSUER)
    .setAudience(String(portal.id))
    .setIssuedAt()
    .setExpirationTime(expSeconds)
    .encrypt(key);
  setCookie(c, SESSION_COOKIE, token, {
    path: cookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c), maxAge: expSeconds - Math.floor(now / 1000),
  });
  c.header("cache-control", "private, no-store");
  return c.redirect(safeReturnPath(portal, returnTo), 303);
}

function stringRecord(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

/**
 * The session in the request's cookie for `portal`, with its reader's revocation mark (one KV read), or null when
 * there is none, it is expired, was sealed for another portal or with another key, or is malformed (a bad cookie
 * reads as signed out, never 5xx). Whether it still holds is {@link currentIdentity}'s to say.
 */
export async function openSession(c: Context<AppEnv>, portal: Pick<PortalRow, "id">): Promise<OpenedSession | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length > MAX_COOKIE_CHARS) return null;
  const key = await sessionKey(c.env.SESSION_SECRET);
  if (!key) return null;
  let hit = opened.get(token);
  // The same token under the same key and portal opens to the same claims; only its expiry is re-checked.
  if (!(hit && hit.key === key && hit.portalId === portal.id && hit.expMs > Date.now())) {
    hit = await decrypt(token, key, portal.id);
    if (!hit) return null;
    if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value!);
    opened.set(token, hit);
  }
  return { ...hit.session, revokedBeforeMs: await revokedBefore(c.env.SESSIONS, portal.id, hit.revocationKey) };
}

async function decrypt(token: string, key: Uint8Array, portalId: number) {
  try {
    const { payload } = await jwtDecrypt(token, key, {
      issuer: ISSUER, audience: String(portalId), keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["exp", "iat"],
    });
    const audiences = Array.isArray(payload.aud_) ? payload.aud_.filter((a): a is string => typeof a === "string") : null;
    const variables = stringRecord(payload.vars);
    const method = METHODS.find((m) => m === payload.m);
    if (typeof payload.rid !== "string" || !audiences || !variables || !method) return undefined;
    if (!Number.isSafeInteger(payload.pv) || !Number.isSafeInteger(payload.iam)) return undefined;
    const identity: ReaderIdentity = { readerId: payload.rid, ...(typeof payload.email === "string" ? { email: payload.email } : {}), audiences, variables, method };
    return {
      session: { identity, portalVersion: payload.pv as number, issuedAtMs: payload.iam as number },
      revocationKey: await readerRevocationKey(identity.readerId), portalId, key, expMs: payload.exp! * 1000,
    };
  } catch {
    return undefined;
  }
}

/**
 * The identity of an opened session if it still holds: sealed under the portal's current session version and
 * issued after its reader's last sign-out. Null otherwise (signed out).
 */
export function currentIdentity(session: OpenedSession | null, portalSessionVersion: number): ReaderIdentity | null {
  if (!session || session.portalVersion !== portalSessionVersion || session.issuedAtMs <= session.revokedBeforeMs) return null;
  return session.identity;
}

/** The identity in the request's session cookie for `portal` if it still holds (see {@link currentIdentity}). */
export async function readSession(c: Context<AppEnv>, portal: SessionPortal, access: { sessionVersion: number }): Promise<ReaderIdentity | null> {
  return currentIdentity(await openSession(c, portal), access.sessionVersion);
}

/** Deletes the session cookie of `portal` (sign-out). */
export function clearSession(c: Context<AppEnv>, portal: SessionPortal): void {
  deleteCookie(c, SESSION_COOKIE, { path: cookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
  c.header("cache-control", "private, no-store");
}

/** Signs `readerId` out of `portalId` everywhere: every session of theirs issued until now is void. */
export async function revokeReaderSessions(env: Pick<Env, "SESSIONS">, portalId: number, readerId: string): Promise<void> {
  await markReaderRevoked(env.SESSIONS, portalId, readerId, SESSION_TTL_SECONDS);
}
