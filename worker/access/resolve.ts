/**
 * @module The reader of a request, resolved once: session cookie → identity → `ReaderContext`, beside the
 * portal's access policy. Pages that call it are reader-dependent: `readerCacheMiddleware` marks their answers
 * `Cache-Control: private, no-store` whenever the portal gates anything or the reader is signed in.
 * Gating helpers: a signed-out reader on a gated path is sent to sign in (`SignInRequired`, answered 303).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { loadAccess, type PortalAccess } from "../store/readers";
import { bearerToken, readerFromBearer, type BearerReader } from "./bearer";
import { isOAuthAccessToken, readerFromAccessToken, type OAuthPortal } from "./oauth";
import type { ReaderIdentity } from "./identity";
import { isGated, pathNeedsSignIn } from "./policy";
import { anonymousReader, signedInReader, type ReaderContext } from "./reader";
import { currentIdentity, openSession } from "./session";
import { internalBasePath, portalBasePath, readerPath, type PortalAddress } from "../render/shell/base-path";

/** What every reader surface needs to know about who is asking. */
export interface ReaderState {
  access: PortalAccess;
  identity: ReaderIdentity | null;
  /**
   * The request's `Authorization: Bearer` reader token (access/bearer.ts): when it verifies it is the identity, over
   * any session cookie; an invalid one leaves the identity to the cookie and is refused (401) by the machine routes.
   */
  bearer: BearerReader;
  /** The reader in `locale` (audiences and variables do not depend on it). */
  reader(locale: string): ReaderContext;
}

/** The portal a reader is resolved for (its address too where the MCP endpoint checks an access token's resource). */
export interface StatePortal {
  id: number;
  slug: string;
  hostname?: string | null;
  origin?: string | null;
}

const STATES = new WeakMap<Request, Promise<ReaderState>>();
const DEPENDENT = new WeakSet<Request>();

/** The reader of this request for `portal` (resolved once per request; later calls share it). */
export function readerState(c: Context<AppEnv>, portal: StatePortal): Promise<ReaderState> {
  let state = STATES.get(c.req.raw);
  if (!state) {
    state = (async () => {
      const [access, session] = await Promise.all([loadAccess(c.env.DB, portal.id), openSession(c, portal)]);
      return stateOf(c, portal, access, currentIdentity(session, access.sessionVersion));
    })();
    STATES.set(c.req.raw, state);
  }
  return state;
}

/**
 * The reader of this request for `portal` when its access is already loaded (the playground proxy reads it in the
 * same D1 round trip as everything else): only the session cookie is opened. Later {@link readerState} calls of
 * the request share it.
 */
export function readerStateWith(c: Context<AppEnv>, portal: StatePortal, access: PortalAccess): Promise<ReaderState> {
  let state = STATES.get(c.req.raw);
  if (!state) {
    state = openSession(c, portal).then((session) => stateOf(c, portal, access, currentIdentity(session, access.sessionVersion)));
    STATES.set(c.req.raw, state);
  }
  return state;
}

const ANONYMOUS = new WeakSet<Request>();

/**
 * Makes the request's reader anonymous whatever cookie or token it carries (a Docs API key's requests: a key never
 * opens gated content, and an embed's browser may hold the reader's session cookie). Call before `readerState`.
 */
export function readAnonymously(request: Request): void {
  ANONYMOUS.add(request);
}

const OAUTH_RESOURCE = new WeakMap<Request, (portal: OAuthPortal) => string>();

/**
 * Lets the request's bearer token be an OAuth access token of the portal's authorization server (access/oauth.ts),
 * bound to the resource `resourceOf` names: the MCP endpoint calls it before `readerState`. Elsewhere such a token is
 * refused (RFC 8707: it is for the MCP endpoint alone).
 */
export function acceptAccessTokens(request: Request, resourceOf: (portal: OAuthPortal) => string): void {
  OAUTH_RESOURCE.set(request, resourceOf);
}

async function bearerReader(c: Context<AppEnv>, portal: StatePortal, access: PortalAccess): Promise<BearerReader> {
  const authorization = c.req.header("authorization");
  const token = bearerToken(authorization);
  if (token && isOAuthAccessToken(token)) {
    const resourceOf = OAUTH_RESOURCE.get(c.req.raw);
    if (!resourceOf) return { kind: "invalid", reason: "an MCP access token is accepted by the MCP endpoint only" };
    const p: OAuthPortal = { id: portal.id, slug: portal.slug, hostname: portal.hostname ?? null, origin: portal.origin ?? null };
    return readerFromAccessToken(c.env, p, access, token, resourceOf(p));
  }
  return readerFromBearer(authorization, access);
}

async function stateOf(c: Context<AppEnv>, portal: StatePortal, access: PortalAccess, session: ReaderIdentity | null): Promise<ReaderState> {
  if (ANONYMOUS.has(c.req.raw)) {
    if (isGated(access.policy)) DEPENDENT.add(c.req.raw);
    return { access, identity: null, bearer: { kind: "none" }, reader: anonymousReader };
  }
  const bearer = await bearerReader(c, portal, access);
  const identity = bearer.kind === "reader" ? bearer.identity : session;
  if (identity || isGated(access.policy)) DEPENDENT.add(c.req.raw);
  return { access, identity, bearer, reader: (locale: string) => (identity ? signedInReader(identity, locale) : anonymousReader(locale)) };
}

/** A signed-out reader asked for a gated path: answered 303 to the sign-in page, which sends them back. */
export class SignInRequired extends Error {
  constructor(readonly location: string) {
    super("sign in to read this page");
    this.name = "SignInRequired";
  }
}

/** The sign-in page URL of a portal, returning to `returnTo` (a reader path of the portal) afterwards. */
export function signInUrl(portal: PortalAddress, returnTo: string): string {
  return `${portalBasePath(portal)}/auth/signin?return=${encodeURIComponent(returnTo)}`;
}

/**
 * Throws {@link SignInRequired} when the reader is signed out and `path` (after `/p/{portal}`, no locale) is gated by
 * the portal's default or a section. Decided on the path alone: whether a page exists is never revealed.
 */
export function requireSignInFor(c: Context<AppEnv>, state: ReaderState, portal: PortalAddress, path: string): void {
  if (state.identity || !pathNeedsSignIn(state.access.policy, path)) return;
  const url = new URL(c.req.url);
  throw new SignInRequired(signInUrl(portal, readerPath(portal, url.pathname) + url.search));
}

/** The path of a reader route (internal: `/p/{portal}/…` whatever the Host) after `/p/{portal}` and any locale segment (`/de/guides/x` → `/guides/x`). */
export function portalPath(requestPath: string, portalSlug: string, locales: readonly string[] = []): string {
  let rest = requestPath.slice(internalBasePath(portalSlug).length) || "/";
  const first = /^\/([^/]+)(\/.*)?$/.exec(rest);
  if (first && locales.includes(first[1])) rest = first[2] ?? "/";
  return rest;
}

/** Marks reader-dependent answers `private, no-store` (after the handler ran, whatever it answered). */
export const readerCacheMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!DEPENDENT.has(c.req.raw)) return;
  // A response with immutable headers (one passed through from a fetch) is copied rather than sent as is.
  try {
    c.res.headers.set("cache-control", "private, no-store");
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("cache-control", "private, no-store");
  }
  c.res.headers.append("vary", "cookie");
});
