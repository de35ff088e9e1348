/**
 * @module Reader sign-in under `/p/{portal}/auth/`: the sign-in page, the shared password, magic links (ask and
 * verify), the JWT hand-off, sign-out, and the dev-only outbox. SAML (`saml/*`) lives beside it in its own module.
 * Every success ends in `establishSession` (303 back to a same-portal `return`). POSTs are CSRF-checked (Origin).
 */
import { Hono, type Context } from "hono";
import { csrf } from "hono/csrf";
import type { ReaderIdentity } from "../access/identity";
import { verifyReaderJwt } from "../access/jwt";
import { mailerFor } from "../access/mailer";
import { verifyPassword } from "../access/password";
import { EMAIL } from "../access/policy";
import { clientAddress, type AttemptKind } from "../access/rate-limit";
import { signInLimiter } from "../access/sign-in-limiter";
import { readerState } from "../access/resolve";
import { safeReturnPath } from "../access/return-to";
import { clearApiKey } from "../access/api-key";
import { clearAllTokens } from "../playground/oauth-cookie";
import { clearSession, establishSession, openSession, revokeReaderSessions } from "../access/session";
import { sha256 } from "../content/hash";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { renderErrorPage } from "../render";
import { renderSignInPage, type SignInPageProps } from "../render/pages/signin-page";
import { portalBasePath } from "../render/shell/base-path";
import { errorChrome, loadChrome } from "./shell-chrome";
import { getDb } from "../store/db";
import type { PortalRow } from "../store/portals";
import { loadPortal } from "../store/reader";
import { consumeMagicLink, createMagicLink, listOutbox, markTokenUsed, type PortalAccess } from "../store/readers";

/** Lifetime of a magic link, in milliseconds (15 minutes). */
export const MAGIC_LINK_TTL_MS = 15 * 60_000;

interface Portal {
  portal: PortalRow;
  access: PortalAccess;
  signedIn: ReaderIdentity | null;
}

/** The portal and its access; 404 (like any unknown page) when it offers no way in. */
async function portalOf(c: Context<AppEnv>): Promise<Portal> {
  const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal") ?? "");
  const state = await readerState(c, portal);
  if (state.access.policy.methods.length === 0) throw new ApiError(404, "not-found", "this portal has no reader sign-in");
  return { portal, access: state.access, signedIn: state.identity };
}

function enabled(p: Portal, method: "password" | "magic-link" | "jwt"): boolean {
  const policy = p.access.policy;
  if (!policy.methods.includes(method)) return false;
  if (method === "password") return p.access.passwordHash !== null;
  if (method === "jwt") return p.access.jwtSecret !== null || !!policy.jwt?.jwks || !!policy.jwt?.publicKey;
  return !!(policy.magicLink?.allowedDomains.length || policy.magicLink?.allowList.length);
}

async function page(c: Context<AppEnv>, p: Portal, returnTo: string, status: 200 | 400 | 401 | 429, notice?: SignInPageProps["notice"]): Promise<Response> {
  c.header("cache-control", "private, no-store");
  const chrome = (await loadChrome(c, p.portal.slug))?.chrome;
  return c.html(renderSignInPage({
    ...(chrome ? { chrome } : {}),
    portalName: p.portal.name, basePath: portalBasePath(p.portal), returnTo: safeReturnPath(p.portal, returnTo), notice,
    methods: { password: enabled(p, "password"), magicLink: enabled(p, "magic-link"), jwt: enabled(p, "jwt"), saml: p.access.policy.methods.includes("saml") },
    signedInAs: p.signedIn ? (p.signedIn.email ?? (p.signedIn.method === "password" ? "a reader with the shared password" : p.signedIn.readerId)) : undefined,
  }), status);
}

async function form(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) throw new ApiError(415, "unsupported-media-type", "send the form as application/x-www-form-urlencoded");
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string").map(([k, v]) => [k, v.slice(0, 2048)]));
}

/**
 * Reserves one attempt of `kind` for this client on the portal (atomically, in its SignInLimiter); a 429 page
 * when the client or the portal is over its limit. A password's reservation is released when it was right.
 */
async function reserveAttempt(c: Context<AppEnv>, p: Portal, kind: AttemptKind, returnTo: string): Promise<{ id: number } | Response> {
  const reservation = await signInLimiter(c.env, p.portal.id).reserve(kind, clientAddress(c.env, c.req.raw), Date.now());
  return reservation.ok ? { id: reservation.id } : tooMany(c, p, returnTo, reservation.retryAfterSeconds);
}

function tooMany(c: Context<AppEnv>, p: Portal, returnTo: string, retryAfterSeconds: number): Promise<Response> {
  c.header("retry-after", String(retryAfterSeconds));
  return page(c, p, returnTo, 429, { kind: "error", text: "Too many attempts. Wait a few minutes and try again." });
}

function audiencesOf(p: Portal, configured: string[] | undefined): string[] {
  return configured ?? p.access.policy.audiences;
}

function isLocal(env: Env): boolean {
  return /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(env.PORTICO_BASE_URL ?? "");
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export const authRoutes = new Hono<AppEnv>()
  // Same-origin form posts only (Origin checked): no other site can sign a reader in or out.
  .use("/p/:portal/auth/*", csrf())
  .get("/p/:portal/auth/signin", async (c) => page(c, await portalOf(c), c.req.query("return") ?? "", 200))
  .post("/p/:portal/auth/password", async (c) => {
    const p = await portalOf(c);
    if (!enabled(p, "password")) throw new ApiError(404, "not-found", "this portal has no shared password");
    const fields = await form(c);
    // Reserved before the check: concurrent guesses are counted while they are checked, not after.
    const attempt = await reserveAttempt(c, p, "password", fields.return);
    if (attempt instanceof Response) return attempt;
    if (!(await verifyPassword(fields.password ?? "", p.access.passwordHash!))) {
      return page(c, p, fields.return, 401, { kind: "error", text: "That password is not right." });
    }
    await signInLimiter(c.env, p.portal.id).release(attempt.id);
    // A reader id of its own per sign-in: signing out one browser must not sign out everyone who knows the password.
    const identity: ReaderIdentity = { readerId: `password:${randomToken().slice(0, 22)}`, audiences: audiencesOf(p, p.access.policy.passwordAudiences), variables: {}, method: "password" };
    return establishSession(c, p.portal, identity, fields.return ?? "");
  })
  .post("/p/:portal/auth/magic-link", async (c) => {
    const p = await portalOf(c);
    if (!enabled(p, "magic-link")) throw new ApiError(404, "not-found", "this portal has no magic links");
    const fields = await form(c);
    const email = (fields.email ?? "").trim().toLowerCase();
    if (!EMAIL.test(email)) return page(c, p, fields.return, 400, { kind: "error", text: "Type an email address." });
    const attempt = await reserveAttempt(c, p, "magic-link", fields.return);
    if (attempt instanceof Response) return attempt;
    const ml = p.access.policy.magicLink!;
    // Whether or not the address may read, the answer is the same: nobody learns who is allowed.
    if (ml.allowList.includes(email) || ml.allowedDomains.includes(email.slice(email.lastIndexOf("@") + 1))) {
      const token = randomToken();
      await createMagicLink(c.env.DB, { tokenHash: await sha256(token), portalId: p.portal.id, email, returnTo: safeReturnPath(p.portal, fields.return), expiresAt: Date.now() + MAGIC_LINK_TTL_MS });
      const link = `${publicOrigin(c.env, p.portal)}${portalBasePath(p.portal)}/auth/magic-link/verify?token=${token}`;
      await mailerFor(c.env).send(p.portal.id, {
        to: email, subject: `Sign in to ${p.portal.name}`,
        text: `Open this link to sign in to ${p.portal.name}. It works once, for 15 minutes.\n\n${link}\n\nIf you did not ask for it, ignore this message.\n`,
      });
    }
    return page(c, p, fields.return, 200, { kind: "info", text: `If ${email} may read this portal, a sign-in link is on its way. It works once, for 15 minutes.` });
  })
  .get("/p/:portal/auth/magic-link/verify", async (c) => {
    const p = await portalOf(c);
    if (!enabled(p, "magic-link")) throw new ApiError(404, "not-found", "this portal has no magic links");
    const token = c.req.query("token") ?? "";
    const used = /^[A-Za-z0-9_-]{43}$/.test(token) ? await consumeMagicLink(c.env.DB, p.portal.id, await sha256(token), Date.now()) : undefined;
    if (!used) return page(c, p, "", 400, { kind: "error", text: "This sign-in link has expired or was used already. Ask for a new one." });
    const identity: ReaderIdentity = { readerId: used.email, email: used.email, audiences: audiencesOf(p, p.access.policy.magicLink?.audiences), variables: {}, method: "magic-link" };
    return establishSession(c, p.portal, identity, used.returnTo);
  })
  .get("/p/:portal/auth/jwt", async (c) => {
    const p = await portalOf(c);
    if (!enabled(p, "jwt")) throw new ApiError(404, "not-found", "this portal takes no JWT sign-in");
    const returnTo = c.req.query("return") ?? "";
    const now = Date.now();
    const result = await verifyReaderJwt(c.req.query("token") ?? "", p.access.policy.jwt ?? { audiencesClaim: "groups", variablesClaim: "vars" }, p.access.jwtSecret, now);
    if (!result.ok) return page(c, p, returnTo, 401, { kind: "error", text: `Sign-in refused: ${result.reason}.` });
    if (!(await markTokenUsed(c.env.DB, p.portal.id, result.replayKey, result.expiresAt, now))) {
      return page(c, p, returnTo, 401, { kind: "error", text: "Sign-in refused: this token was used already. Sign in again from your company's site." });
    }
    return establishSession(c, p.portal, result.identity, returnTo);
  })
  .post("/p/:portal/auth/signout", async (c) => {
    const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal"));
    // The cookie is void wherever a copy of it went: every session of this reader on this portal ends.
    const session = await openSession(c, portal);
    if (session) await revokeReaderSessions(c.env, portal.id, session.identity.readerId);
    clearSession(c, portal);
    clearApiKey(c, portal); // the issue: the API key is cleared on sign-out too
    clearAllTokens(c, portal); // and the playground's OAuth tokens, for the same reason (a shared computer)
    return c.redirect(`${portalBasePath(portal)}/`, 303);
  })
  .get("/p/:portal/auth/outbox", async (c) => {
    // Dev only: the embedded mailer's messages, on local runs (npm start) without a production mailer.
    if (!isLocal(c.env) || mailerFor(c.env).kind !== "outbox") throw new ApiError(404, "not-found", "no outbox here");
    const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal"));
    const messages = await listOutbox(c.env.DB, portal.id);
    c.header("cache-control", "private, no-store");
    return c.text(messages.length ? messages.map((m) => `#${m.id} ${m.createdAt}\nTo: ${m.to}\nSubject: ${m.subject}\n\n${m.text}`).join("\n----\n") : "The outbox is empty.\n");
  })
  .onError(async (error, c) => {
    if (error instanceof ApiError) {
      return c.html(renderErrorPage({ status: error.status, title: error.status === 404 ? "Not found" : "Error", message: error.message, chrome: await errorChrome(c) }), error.status as 404);
    }
    throw error;
  });
