/**
 * @module Where the playground keeps OAuth tokens and sign-ins in progress: encrypted cookies, never page-readable
 * (docs/playground.md "OAuth 2.0"). Same key handling as the session and API-key cookies (worker/access/): jose
 * `EncryptJWT` dir + A256GCM, key = SHA-256 of a label of its own and the `SESSION_SECRET` secret, `aud` = the
 * portal's id, HttpOnly, SameSite=Lax, Secure unless the request is to plain-http localhost.
 *
 * - **Tokens**: one cookie per API + security scheme (`portico_oauth_<16 hex of SHA-256(api, scheme)>`, Path
 *   `/p/{portal}/playground/`), so each token has a cookie's 4 KB to itself; the sealed (api, scheme) pair is
 *   checked on reading, so a cookie renamed onto another scheme is ignored. At most {@link MAX_TOKEN_COOKIES}; storing
 *   one more drops the oldest. Kept 12 hours (a reader session's length), or until the token expires when it has no
 *   refresh token. A token that would not fit is refused (`token-too-large`), never split.
 * - **Sign-in in progress** (`portico_oauth_flow`, Path `/p/{portal}/playground/oauth/`, 10 minutes): state, PKCE
 *   verifier, nonce, the client and where to return. One at a time: a new start replaces it; the callback deletes it.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { EncryptJWT, jwtDecrypt, type JWTPayload } from "jose";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import type { ClientAuthMethod } from "./oauth";
import { portalCookiePath, type PortalAddress } from "../render/shell/base-path";

/** A token as kept for one API + scheme. Times are epoch milliseconds. */
export interface StoredToken {
  accessToken: string;
  tokenType: "Bearer";
  scopes: string[];
  expiresAt: number | null;
  refreshToken?: string;
  clientId: string;
  /** Only when the reader typed one (a confidential client); needed again to refresh. */
  clientSecret?: string;
  /** The token endpoint that issued it: refreshes go there (RFC 6749 §6), checked again each time. */
  tokenUrl: string;
  authMethod: ClientAuthMethod;
  obtainedAt: number;
}

/** A sign-in between `start` and `callback`. */
export interface PendingFlow {
  state: string;
  verifier: string;
  nonce?: string;
  api: string;
  version: string;
  scheme: string;
  scopes: string[];
  clientId: string;
  clientSecret?: string;
  /** A path of this portal (checked at start). */
  returnTo: string;
  redirectUri: string;
  tokenUrl: string;
  authMethod: ClientAuthMethod;
  issuer?: string;
  jwksUri?: string;
}

/** Token cookies kept at once per portal; one more drops the oldest. */
export const MAX_TOKEN_COOKIES = 6;
/** A token cookie lives at most this long (seconds): a reader session's 12 hours. */
export const TOKEN_COOKIE_TTL_SECONDS = 12 * 3600;
/** A sign-in must come back within this many seconds. */
export const FLOW_TTL_SECONDS = 600;
/** Largest sealed cookie value written (characters): with its name and attributes it stays under 4 KB. */
export const MAX_SEALED_CHARS = 3800;
const TOKEN_PREFIX = "portico_oauth_";
/** The sign-in cookie's name. */
export const FLOW_COOKIE = "portico_oauth_flow";
const ISSUER = "portico-oauth";

const keyCache = new Map<string, Uint8Array>();

async function cookieKey(secret: string | undefined): Promise<Uint8Array> {
  if (!secret || secret.length < 16) throw new ApiError(503, "sessions-unconfigured", "keeping OAuth tokens needs the SESSION_SECRET secret (at least 16 characters)");
  let key = keyCache.get(secret);
  if (!key) {
    key = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`portico-oauth:${secret}`)));
    keyCache.set(secret, key);
  }
  return key;
}

function secure(c: Context<AppEnv>): boolean {
  const url = new URL(c.req.url);
  return !(url.protocol === "http:" && (url.hostname === "localhost" || url.hostname.endsWith(".localhost") || url.hostname === "127.0.0.1" || url.hostname === "[::1]"));
}

async function seal(c: Context<AppEnv>, portalId: number, subject: string, claims: JWTPayload, ttlSeconds: number): Promise<string> {
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuer(ISSUER)
    .setAudience(String(portalId))
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(`${Math.max(1, Math.floor(ttlSeconds))}s`)
    .encrypt(await cookieKey(c.env.SESSION_SECRET));
}

async function open(c: Context<AppEnv>, portalId: number, subject: string, value: string | undefined): Promise<JWTPayload | undefined> {
  if (!value || value.length > MAX_SEALED_CHARS) return undefined;
  try {
    const { payload } = await jwtDecrypt(value, await cookieKey(c.env.SESSION_SECRET), {
      issuer: ISSUER, audience: String(portalId), subject, keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"], requiredClaims: ["exp"],
    });
    return payload;
  } catch {
    return undefined; // another portal's, another key's, expired or malformed: as if absent
  }
}

const tokenSubject = (api: string, scheme: string) => `token\u0000${api}\u0000${scheme}`;

/** The cookie name of one API + scheme's token. */
export async function tokenCookieName(api: string, scheme: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${api}\u0000${scheme}`)));
  return TOKEN_PREFIX + [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const tokenPath = (portal: PortalAddress) => portalCookiePath(portal, "playground/");

function asStoredToken(p: JWTPayload | undefined): StoredToken | undefined {
  const t = p?.t as StoredToken | undefined;
  if (!t || typeof t.accessToken !== "string" || typeof t.tokenUrl !== "string" || typeof t.clientId !== "string" || !Array.isArray(t.scopes)) return undefined;
  return t;
}

/** The reader's token for `api` + `scheme`, or undefined (none, expired cookie, or not ours). */
export async function readToken(c: Context<AppEnv>, portal: { id: number }, api: string, scheme: string): Promise<StoredToken | undefined> {
  return asStoredToken(await open(c, portal.id, tokenSubject(api, scheme), getCookie(c, await tokenCookieName(api, scheme))));
}

/**
 * Seals `token` into its cookie. When the reader already holds {@link MAX_TOKEN_COOKIES} other token cookies,
 * the oldest (by `obtainedAt`; unreadable ones first) are deleted.
 * @throws ApiError 413 `token-too-large` when the sealed token would not fit a cookie (nothing is written).
 */
export async function writeToken(c: Context<AppEnv>, portal: { id: number } & PortalAddress, api: string, scheme: string, token: StoredToken): Promise<void> {
  const name = await tokenCookieName(api, scheme);
  const ttl = token.refreshToken || token.expiresAt === null
    ? TOKEN_COOKIE_TTL_SECONDS
    : Math.min(TOKEN_COOKIE_TTL_SECONDS, (token.expiresAt - Date.now()) / 1000 + 60);
  const value = await seal(c, portal.id, tokenSubject(api, scheme), { t: token as unknown as JWTPayload[string] }, ttl);
  if (value.length > MAX_SEALED_CHARS) {
    throw new ApiError(413, "token-too-large", "this token is too large to keep in the reader's cookie (4 KB); the playground cannot use it");
  }
  const others = Object.entries(getCookie(c)).filter(([n]) => n.startsWith(TOKEN_PREFIX) && n !== FLOW_COOKIE && n !== name);
  if (others.length >= MAX_TOKEN_COOKIES) {
    // Only the time is needed; a cookie that does not open as a token of this portal counts as the oldest.
    const aged = await Promise.all(others.map(async ([n, v]) => {
      let obtained = -1;
      try {
        const { payload } = await jwtDecrypt(v, await cookieKey(c.env.SESSION_SECRET), { issuer: ISSUER, audience: String(portal.id) });
        obtained = asStoredToken(payload)?.obtainedAt ?? -1;
      } catch {
        // unreadable: oldest
      }
      return { n, obtained };
    }));
    aged.sort((a, b) => a.obtained - b.obtained);
    for (const { n } of aged.slice(0, others.length - MAX_TOKEN_COOKIES + 1)) {
      deleteCookie(c, n, { path: tokenPath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
    }
  }
  setCookie(c, name, value, { path: tokenPath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c), maxAge: Math.max(1, Math.floor(ttl)) });
  c.header("cache-control", "private, no-store");
}

/** Deletes the token cookie of `api` + `scheme`. */
export async function forgetToken(c: Context<AppEnv>, portal: PortalAddress, api: string, scheme: string): Promise<void> {
  deleteCookie(c, await tokenCookieName(api, scheme), { path: tokenPath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
  c.header("cache-control", "private, no-store");
}

const flowPath = (portal: PortalAddress) => portalCookiePath(portal, "playground/oauth/");

/** Keeps a sign-in in progress (replacing any other). @throws ApiError 413 when it does not fit a cookie. */
export async function writeFlow(c: Context<AppEnv>, portal: { id: number } & PortalAddress, flow: PendingFlow): Promise<void> {
  const value = await seal(c, portal.id, "flow", { f: flow as unknown as JWTPayload[string] }, FLOW_TTL_SECONDS);
  if (value.length > MAX_SEALED_CHARS) throw new ApiError(413, "invalid-request", "the sign-in request is too large (fewer scopes, a shorter client id or return path)");
  setCookie(c, FLOW_COOKIE, value, { path: flowPath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c), maxAge: FLOW_TTL_SECONDS });
}

/** The sign-in in progress, or undefined (none, expired, another portal's). */
export async function readFlow(c: Context<AppEnv>, portal: { id: number }): Promise<PendingFlow | undefined> {
  const f = (await open(c, portal.id, "flow", getCookie(c, FLOW_COOKIE)))?.f as PendingFlow | undefined;
  return f && typeof f.state === "string" && typeof f.verifier === "string" && typeof f.returnTo === "string" ? f : undefined;
}

/** Ends the sign-in in progress (a state is used once). */
export function clearFlow(c: Context<AppEnv>, portal: PortalAddress): void {
  deleteCookie(c, FLOW_COOKIE, { path: flowPath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
}

/** Deletes every OAuth token cookie and any sign-in in progress (reader sign-out, as the API key is cleared). */
export function clearAllTokens(c: Context<AppEnv>, portal: PortalAddress): void {
  for (const name of Object.keys(getCookie(c))) {
    if (name.startsWith(TOKEN_PREFIX) && name !== FLOW_COOKIE) deleteCookie(c, name, { path: tokenPath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
  }
  if (getCookie(c, FLOW_COOKIE) !== undefined) clearFlow(c, portal);
}
