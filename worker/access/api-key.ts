/**
 * @module "API key once": the reader's own API key, entered in the Authorize control and carried by every code
 * sample. Kept in its own cookie (`portico_api_key`), sealed with jose `EncryptJWT` (dir + A256GCM; key =
 * SHA-256 of a label and the `SESSION_SECRET` secret, so it is never the session's key), bound to the portal,
 * HttpOnly, SameSite=Lax, Path `/p/{portal}/` (`/` on its custom hostname), Secure unless the request is to localhost. Independent of the
 * session so anonymous readers of public portals have it too; sign-out clears it (`clearApiKey`). The key is never
 * logged: nothing here prints it, and refusals say what is wrong with it, never what it is.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { EncryptJWT, jwtDecrypt } from "jose";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import type { PortalRow } from "../store/portals";
import { portalCookiePath } from "../render/shell/base-path";

/** Name of the cookie. */
export const API_KEY_COOKIE = "portico_api_key";
/** How long the key is kept: 30 days from entry. */
export const API_KEY_TTL_SECONDS = 30 * 86_400;
/** Longest key accepted (API keys and tokens are far shorter; a JWT access token fits). */
export const MAX_API_KEY_CHARS = 2048;
const MAX_COOKIE_CHARS = 3800;
const ISSUER = "portico-api-key";

const keyCache = new Map<string, Uint8Array>();

/** The content key for `secret`, or null when `SESSION_SECRET` is unset or short (the same rule as sessions). */
async function cookieKey(secret: string | undefined): Promise<Uint8Array | null> {
  if (!secret || secret.length < 16) return null;
  let key = keyCache.get(secret);
  if (!key) {
    key = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`portico-api-key:${secret}`)));
    keyCache.set(secret, key);
  }
  return key;
}

function secure(c: Context<AppEnv>): boolean {
  const url = new URL(c.req.url);
  return !(url.protocol === "http:" && (url.hostname === "localhost" || url.hostname.endsWith(".localhost") || url.hostname === "127.0.0.1" || url.hostname === "[::1]"));
}

/**
 * Checks a key as typed: trimmed, 1-2048 visible ASCII characters (what fits an HTTP header, a query value or a
 * cookie without encoding surprises).
 * @throws ApiError 400 saying what is wrong (never echoing the key).
 */
export function normalizeApiKey(raw: string | null | undefined): string {
  const key = (raw ?? "").trim();
  if (!key) throw new ApiError(400, "invalid-api-key", "enter an API key");
  if (key.length > MAX_API_KEY_CHARS) throw new ApiError(400, "invalid-api-key", `the API key is longer than ${MAX_API_KEY_CHARS} characters`);
  if (!/^[\x21-\x7e]+$/.test(key)) throw new ApiError(400, "invalid-api-key", "the API key may hold only visible ASCII characters (no spaces)");
  return key;
}

/** Seals `key` into the portal's API-key cookie. @throws ApiError 503 without `SESSION_SECRET`. */
export async function storeApiKey(c: Context<AppEnv>, portal: PortalRow, key: string): Promise<void> {
  const secret = await cookieKey(c.env.SESSION_SECRET);
  if (!secret) throw new ApiError(503, "sessions-unconfigured", "keeping an API key needs the SESSION_SECRET secret (at least 16 characters)");
  const token = await new EncryptJWT({ k: key })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuer(ISSUER)
    .setAudience(String(portal.id))
    .setIssuedAt()
    .setExpirationTime(`${API_KEY_TTL_SECONDS}s`)
    .encrypt(secret);
  setCookie(c, API_KEY_COOKIE, token, { path: portalCookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c), maxAge: API_KEY_TTL_SECONDS });
  c.header("cache-control", "private, no-store");
}

/** The reader's API key for `portal`, or undefined (none, expired, another portal's, another secret's, or malformed). */
export async function readApiKey(c: Context<AppEnv>, portal: Pick<PortalRow, "id">): Promise<string | undefined> {
  const token = getCookie(c, API_KEY_COOKIE);
  if (!token || token.length > MAX_COOKIE_CHARS) return undefined;
  const secret = await cookieKey(c.env.SESSION_SECRET);
  if (!secret) return undefined;
  try {
    const { payload } = await jwtDecrypt(token, secret, {
      issuer: ISSUER, audience: String(portal.id), keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"], requiredClaims: ["exp"],
    });
    return typeof payload.k === "string" && payload.k.length <= MAX_API_KEY_CHARS ? payload.k : undefined;
  } catch {
    return undefined;
  }
}

/** Deletes the portal's API-key cookie (the Clear button, and sign-out). */
export function clearApiKey(c: Context<AppEnv>, portal: PortalRow): void {
  deleteCookie(c, API_KEY_COOKIE, { path: portalCookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c) });
  c.header("cache-control", "private, no-store");
}

/** True when the request was not sent by one of our own pages (cross-site form posts are refused: CSRF). */
export function crossSiteRequest(c: Context<AppEnv>): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") return true;
  const origin = c.req.header("origin");
  return origin !== undefined && origin !== "null" && origin !== new URL(c.req.url).origin ? true : origin === "null";
}
