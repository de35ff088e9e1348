/**
 * @module Reader sessions: the cookie every way in (password, magic link, JWT, SAML) ends with. The cookie holds
 * the `ReaderIdentity` sealed with jose `EncryptJWT` (dir + A256GCM; key = SHA-256 of the `SESSION_SECRET`
 * secret), bound to one portal (`aud` = the portal's id) and expiring after `SESSION_TTL_SECONDS`. HttpOnly,
 * SameSite=Lax, Path `/p/{portal}/`, Secure unless the request is to localhost. Nothing is stored server-side:
 * sign-out deletes the cookie.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { EncryptJWT, jwtDecrypt } from "jose";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import type { PortalRow } from "../store/portals";

/** What a session needs of a portal: its id (sessions are sealed for one portal) and slug (the cookie path). */
type SessionPortal = Pick<PortalRow, "id" | "slug">;
import type { ReaderIdentity, SignInMethod } from "./identity";
import { safeReturnPath } from "./return-to";

/** Name of the session cookie. */
export const SESSION_COOKIE = "portico_session";
/** How long a session lasts from sign-in: 12 hours. */
export const SESSION_TTL_SECONDS = 12 * 3600;
const ISSUER = "portico";
const METHODS: readonly SignInMethod[] = ["password", "magic-link", "jwt", "saml"];
/** A sealed identity is far below this; anything larger is not ours. */
const MAX_COOKIE_CHARS = 3800;

const keyCache = new Map<string, Uint8Array>();
/** Opened cookies per isolate (token → identity and expiry): a reader's next pages skip the decryption. */
const opened = new Map<string, { identity: ReaderIdentity; portalId: number; key: Uint8Array; expMs: number }>();
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
  return `/p/${portal.slug}/`;
}

/** Secure everywhere but plain-http localhost (npm start), where browsers would drop a Secure cookie. */
function secure(c: Context<AppEnv>): boolean {
  const url = new URL(c.req.url);
  return !(url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]"));
}

/**
 * Seals `identity` into the session cookie of `portal` and answers 303 to `returnTo` when it is a path of this
 * portal, else to the portal home. `Cache-Control: no-store` so no cache keeps the Set-Cookie.
 * @throws ApiError 503 when `SESSION_SECRET` is not configured (no session can be trusted without it).
 */
export async function establishSession(c: Context<AppEnv>, portal: SessionPortal, identity: ReaderIdentity, returnTo: string): Promise<Response> {
  const key = await sessionKey(c.env.SESSION_SECRET);
  if (!key) throw new ApiError(503, "sessions-unconfigured", "reader sign-in needs the SESSION_SECRET secret (at least 16 characters)");
  const token = await new EncryptJWT({
    rid: identity.readerId,
    ...(identity.email ? { email: identity.email } : {}),
    aud_: identity.audiences,
    vars: identity.variables,
    m: identity.method,
  })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuer(ISSUER)
    .setAudience(String(portal.id))
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .encrypt(key);
  setCookie(c, SESSION_COOKIE, token, {
    path: cookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c), maxAge: SESSION_TTL_SECONDS,
  });
  c.header("cache-control", "private, no-store");
  return c.redirect(safeReturnPath(portal.slug, returnTo), 303);
}

function stringRecord(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

/**
 * The identity in the request's session cookie for `portal`, or null when there is none, it is expired, was
 * sealed for another portal or with another key, or is malformed (a bad cookie reads as signed out, never 5xx).
 */
export async function readSession(c: Context<AppEnv>, portal: SessionPortal): Promise<ReaderIdentity | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length > MAX_COOKIE_CHARS) return null;
  const key = await sessionKey(c.env.SESSION_SECRET);
  if (!key) return null;
  const hit = opened.get(token);
  // The same token under the same key and portal opens to the same identity; only its expiry is re-checked.
  if (hit && hit.key === key && hit.portalId === portal.id && hit.expMs > Date.now()) return hit.identity;
  try {
    const { payload } = await jwtDecrypt(token, key, {
      issuer: ISSUER, audience: String(portal.id), keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"],
      requiredClaims: ["exp", "iat"],
    });
    const audiences = Array.isArray(payload.aud_) ? payload.aud_.filter((a): a is string => typeof a === "string") : null;
    const variables = stringRecord(payload.vars);
    const method = METHODS.find((m) => m === payload.m);
    if (typeof payload.rid !== "string" || !audiences || !variables || !method) return null;
    const identity: ReaderIdentity = { readerId: payload.rid, ...(typeof payload.email === "string" ? { email: payload.email } : {}), audiences, variables, method };
    if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value!);
    opened.set(token, { identity, portalId: portal.id, key, expMs: payload.exp! * 1000 });
    return identity;
  } catch {
    return null;
  }
}

/** Deletes the session cookie of `portal` (sign-out). */
export function clearSession(c: Context<AppEnv>, portal: SessionPortal): void {
  deleteCookie(c, SESSION_COOKIE, { path: cookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
  c.header("cache-control", "private, no-store");
}
