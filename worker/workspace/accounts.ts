/**
 * @module Writers' accounts (issue 32): magic-link sign-in through the Outbox port (worker/access/mailer.ts),
 * sessions in D1 (`writer_sessions`, the cookie holds 256 random bits, the table their SHA-256), and who is
 * calling a workspace route: the service admin (bearer admin token), a portal token, or a signed-in writer (the
 * cookie; calls that change something must come from the service's own origin, checked on `Origin`).
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sha256 } from "../content/hash";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { bearerToken } from "../http/bearer-token";
import { getDb } from "../store/db";
import { findTokenAuth, type PortalRow, type TokenAuth } from "../store/portals";
import { secretsEqual } from "../store/tokens";
import { createWriterSession, writerOfSession, type Writer } from "../store/workspace";
import type { Actor } from "./audit";

/** The writer's session cookie. */
export const SESSION_COOKIE = "portico_writer";
/** Session lifetime, in milliseconds (30 days). */
export const SESSION_TTL_MS = 30 * 86_400_000;
/** Magic-link lifetime, in milliseconds (15 minutes). */
export const WRITER_LINK_TTL_MS = 15 * 60_000;

/** Who calls a workspace route. */
export type Principal =
  | { kind: "writer"; writer: Writer; sessionHash: string }
  | { kind: "token"; portal: PortalRow; token: TokenAuth }
  | { kind: "admin" };

/** 256 random bits, base64url. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The actor an audit entry names for `p`. */
export function actorOf(p: Principal): Actor {
  if (p.kind === "writer") return { kind: "writer", email: p.writer.email };
  if (p.kind === "token") return { kind: "token", id: p.token.id, name: p.token.name };
  return { kind: "admin" };
}

/** Whether the request came over https (the cookie is then `Secure`). */
function secure(c: Context<AppEnv>): boolean {
  return new URL(c.req.url).protocol === "https:";
}

/**
 * Starts a session for `writer`: a row and an HttpOnly, SameSite=Lax cookie. `sso` (a SAML sign-in) limits the
 * session to that organisation and ends it no later than `notAfter` (the IdP's SessionNotOnOrAfter).
 */
export async function startWriterSession(c: Context<AppEnv>, writer: Writer, now = new Date(), sso?: { organisationId: number; notAfter?: Date }): Promise<void> {
  const token = randomSecret();
  const expiresAt = Math.min(now.getTime() + SESSION_TTL_MS, sso?.notAfter?.getTime() ?? Infinity);
  await createWriterSession(c.env.DB, { tokenHash: await sha256(token), writerId: writer.id, expiresAt, ...(sso ? { organisationId: sso.organisationId } : {}) }, now);
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", secure: secure(c), path: "/", maxAge: Math.max(1, Math.floor((expiresAt - now.getTime()) / 1000)) });
}

/**
 * Whether the writer's session reaches organisation `orgId`: every organisation of theirs, except a session opened
 * by an organisation's SAML IdP, which reaches that organisation only.
 */
export function sessionReaches(writer: Writer, orgId: number | null): boolean {
  return !writer.ssoOrganisationId || writer.ssoOrganisationId === orgId;
}

/** Clears the session cookie. */
export function clearWriterCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secure(c) });
}

/** The signed-in writer of the cookie, or undefined (no cookie, unknown or expired session). */
export async function sessionWriter(c: Context<AppEnv>): Promise<{ writer: Writer; sessionHash: string } | undefined> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length > 100) return undefined;
  const sessionHash = await sha256(token);
  const writer = await writerOfSession(c.env.DB, sessionHash, Date.now());
  return writer ? { writer, sessionHash } : undefined;
}

/**
 * Whether the request's `Origin` is the service's own: the origin of the request URL or of PORTICO_BASE_URL.
 * Browsers send `Origin` on every cross-origin request and on same-origin ones but GET/HEAD; its absence on a
 * change is refused too.
 */
export function sameOrigin(c: Context<AppEnv>): boolean {
  const origin = c.req.header("origin");
  if (!origin) return false;
  const own = new URL(c.req.url).origin;
  let base: string | undefined;
  try {
    base = c.env.PORTICO_BASE_URL ? new URL(c.env.PORTICO_BASE_URL).origin : undefined;
  } catch {
    base = undefined;
  }
  return origin === own || origin === base;
}

/**
 * Who calls: the admin token, a portal token, or the session cookie (calls other than GET/HEAD need a same-origin
 * `Origin`: 403 `cross-origin`). @throws ApiError 401 `unauthorized` when nobody is signed in.
 */
export async function principalOf(c: Context<AppEnv>): Promise<Principal> {
  const bearer = bearerToken(c.req.header("authorization"));
  if (bearer) {
    const admin = c.env.PORTICO_ADMIN_TOKEN;
    if (admin && (await secretsEqual(bearer, admin))) return { kind: "admin" };
    const found = await findTokenAuth(getDb(c.env.DB), bearer);
    if (!found) throw new ApiError(401, "unauthorized", "unknown token, or an expired one");
    return { kind: "token", portal: found.portal, token: found.token };
  }
  const session = await sessionWriter(c);
  if (!session) throw new ApiError(401, "unauthorized", "sign in first: POST /v1/auth/magic-link, or send a bearer token");
  if (c.req.method !== "GET" && c.req.method !== "HEAD" && !sameOrigin(c)) {
    throw new ApiError(403, "cross-origin", "a call signed in by cookie must come from the dashboard's own origin");
  }
  return { kind: "writer", ...session };
}
