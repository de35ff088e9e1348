/**
 * @module The MCP endpoint's OAuth 2.1 authorization server, per portal (access/oauth.ts; docs/mcp.md):
 * - `GET /.well-known/oauth-authorization-server/p/{portal}` (RFC 8414 §3.1), `POST /p/{portal}/oauth/register`
 *   (RFC 7591), `POST /p/{portal}/oauth/token` (code and refresh grants, RFC 7009 revocation): the library's.
 * - `GET|POST /p/{portal}/oauth/authorize`: ours. A signed-out reader is sent to the portal's sign-in page, which
 *   brings them back; a signed-in one sees who asks and where the answer goes, and Allows (the grant carries the
 *   reader's identity: tools answer with what they may open) or Denies (`access_denied` to the client). The form posts
 *   to the same URL, CSRF-checked by Origin; the request is parsed again from the URL each time, never trusted from
 *   the form.
 */
import { AuthorizationError, authorizationErrorRedirect, type AuthRequest } from "@cloudflare/workers-oauth-provider";
import { Hono, type Context } from "hono";
import { csrf } from "hono/csrf";
import { authorizationServer, grantUserId, type McpGrantProps } from "../access/oauth";
import { readerState, signInUrl, type ReaderState } from "../access/resolve";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { DEFAULT_PAGE_POLICY, usePagePolicy } from "../http/security-headers";
import { renderErrorPage } from "../render";
import { renderConsentPage } from "../render/pages/oauth-consent-page";
import { portalBasePath, readerPath } from "../render/shell/base-path";
import { loadContentSite, type ContentSiteData } from "../store/content-site";
import { errorChrome, loadChrome } from "./shell-chrome";

async function portalServer(c: Context<AppEnv>) {
  const slug = c.req.param("portal") ?? "";
  const data = await loadContentSite(c.env, slug);
  if (!data) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  const as = authorizationServer(c.env, data.portal);
  if (!as) throw new ApiError(404, "not-found", "this service cannot issue OAuth tokens (its base URL is plain http off loopback)");
  return { data, as };
}

/** The library's own endpoints (metadata, registration, token), for the portal in the path. */
async function protocol(c: Context<AppEnv>): Promise<Response> {
  const { as } = await portalServer(c);
  // Hono types its own ExecutionContext; the runtime object is the Worker's.
  return as.server.fetch(c.req.raw, c.env, c.executionCtx as unknown as ExecutionContext);
}

async function errorPage(c: Context<AppEnv>, status: 400 | 404, message: string): Promise<Response> {
  c.header("cache-control", "no-store");
  return c.html(renderErrorPage({ status, title: status === 404 ? "Not found" : "This sign-in request cannot be used", message, chrome: await errorChrome(c) }), status);
}

type Authorize = { data: ContentSiteData; request: AuthRequest; helpers: ReturnType<NonNullable<ReturnType<typeof authorizationServer>>["server"]["getOAuthApi"]>; state: ReaderState };

/**
 * The authorization request of this URL, validated by the library (client, redirect URI, resource, PKCE S256), with the
 * reader; or the answer to give instead: the error back to the client where its redirect URI is known, else an error
 * page; the sign-in page for a signed-out reader.
 */
async function authorizeRequest(c: Context<AppEnv>): Promise<Authorize | Response> {
  const { data, as } = await portalServer(c);
  const url = new URL(c.req.url);
  const helpers = as.server.getOAuthApi(c.env);
  let request: AuthRequest;
  try {
    // The library checks a request arrived at the advertised endpoint; the Host router may have added `/p/{slug}`.
    request = await helpers.parseAuthRequest(new Request(`${as.addresses.authorizeEndpoint}${url.search}`));
  } catch (e) {
    if (!(e instanceof AuthorizationError)) throw e;
    if (e.redirectTo) return c.redirect(e.redirectTo, 302);
    return errorPage(c, 400, `The AI tool's request was refused: ${e.description}.`);
  }
  const state = await readerState(c, data.portal);
  if (state.access.policy.methods.length === 0) return errorPage(c, 404, "This portal has no reader sign-in: its MCP server needs no authorization.");
  if (!state.identity) {
    c.header("cache-control", "private, no-store");
    return c.redirect(signInUrl(data.portal, readerPath(data.portal, url.pathname) + url.search), 303);
  }
  return { data, request, helpers, state };
}

export const mcpOAuthRoutes = new Hono<AppEnv>()
  .on(["GET", "HEAD", "OPTIONS"], "/.well-known/oauth-authorization-server/p/:portal", protocol)
  .on(["POST", "OPTIONS"], "/p/:portal/oauth/token", protocol)
  .on(["POST", "OPTIONS"], "/p/:portal/oauth/register", protocol)
  .use("/p/:portal/oauth/authorize", csrf())
  .get("/p/:portal/oauth/authorize", async (c) => {
    const found = await authorizeRequest(c);
    if (found instanceof Response) return found;
    const { data, request, helpers, state } = found;
    const consent = await helpers.describeConsent(request);
    const url = new URL(c.req.url);
    // Allow redirects to the client: its origin must be a form target (CSP form-action covers redirects).
    usePagePolicy(c, { ...DEFAULT_PAGE_POLICY, formActions: [new URL(request.redirectUri).origin] });
    c.header("cache-control", "private, no-store");
    const who = state.identity!;
    return c.html(renderConsentPage({
      portalName: data.portal.name, basePath: portalBasePath(data.portal), clientName: consent.clientName, redirectHost: consent.redirectHost,
      local: consent.redirectIsLoopback, signedInAs: who.email ?? (who.method === "password" ? "a reader with the shared password" : who.readerId),
      action: readerPath(data.portal, url.pathname) + url.search, ...(await loadChrome(c, data.portal.slug).then((x) => (x ? { chrome: x.chrome } : {}))),
    }));
  })
  .post("/p/:portal/oauth/authorize", async (c) => {
    const found = await authorizeRequest(c);
    if (found instanceof Response) return found;
    const { data, request, helpers, state } = found;
    const decision = (await c.req.parseBody()).decision;
    c.header("cache-control", "no-store");
    if (decision !== "allow") return c.redirect(authorizationErrorRedirect(request, "access_denied", "the reader declined"), 303);
    const identity = state.identity!;
    const props: McpGrantProps = { portalId: data.portal.id, identity, portalVersion: state.access.sessionVersion, issuedAtMs: Date.now() };
    const { redirectTo } = await helpers.completeAuthorization({
      request, userId: await grantUserId(data.portal.id, identity.readerId), metadata: { portalId: data.portal.id }, scope: request.scope, props,
    });
    return c.redirect(redirectTo, 303);
  })
  .onError(async (error, c) => {
    if (error instanceof ApiError && !c.req.path.includes("/oauth/authorize")) return c.json(error.toBody(), error.status);
    if (error instanceof ApiError) return errorPage(c, error.status === 404 ? 404 : 400, error.message);
    throw error;
  });
