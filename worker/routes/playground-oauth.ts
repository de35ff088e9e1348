/**
 * @module `/p/{portal}/playground/oauth/*`: OAuth 2.0 and OpenID Connect for the Try-it panel, done by the Worker
 * so tokens never reach page scripts and no authorization server needs CORS (docs/playground.md "OAuth 2.0",
 * contract in the issue 10 brief):
 * - `GET state?api=&version=`: the API version's OAuth schemes and whether the reader holds a token for each;
 * - `GET|POST start`: authorization code with PKCE S256 (RFC 6749 §4.1, RFC 7636), state and (OpenID Connect) nonce
 *   kept in an encrypted cookie, 302/303 to the authorization endpoint (a browser's form post: a page that moves on
 *   by itself, since `form-action 'self'` blocks a form's redirect to another origin; `Accept: application/json`:
 *   200 `{"location"}` for a script to navigate to);
 * - `GET callback`: checks state, exchanges the code from the Worker, checks an OpenID Connect id_token, keeps the
 *   token, 303 back (errors: 303 to `return` with `#playground-error=<code>`; an HTML page when no sign-in is known);
 * - `POST token`: client credentials (RFC 6749 §4.4) exchanged by the Worker;
 * - `POST forget`: drops a token.
 * Reader access is checked as `/playground/send` does it: an API the reader may not read is a 404.
 */
import { portalBasePath, type PortalAddress } from "../render/shell/base-path";
import { Hono, type Context } from "hono";
import { apiLabels } from "../access/labels";
import { canRead } from "../access/reader";
import { readerState, readerStateWith } from "../access/resolve";
import { safeReturnPath } from "../access/return-to";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { readJsonObject } from "../http/read-json";
import { escapeHtml } from "../lib/html-escape";
import { clearFlow, forgetToken, readFlow, readToken, writeFlow, writeToken, type PendingFlow } from "../playground/oauth-cookie";
import {
  discover, flowEndpoints, oauthScheme, parseScopes, pkceChallenge, randomToken, requestToken, verifyIdToken, type Discovery, type OAuthIO, type OAuthScheme,
} from "../playground/oauth";
import { getDb } from "../store/db";
import { getHeader } from "../store/models";
import { loadPlaygroundCall, loadPlaygroundSettings, spendPlaygroundCall, type PlaygroundSettings } from "../store/playground";
import type { PortalRow } from "../store/portals";
import { loadPortal } from "../store/reader";
import { authServerCheck, isLocalEnvironment, rateLimited, readerKey, requiredText, sameSiteOnly } from "./playground";

/** OpenID Connect discovery documents one `state` request may fetch; further OIDC schemes are listed without flows. */
const MAX_DISCOVERIES_PER_STATE = 8;
/** Largest `start` form and `token`/`forget` JSON body (bytes). */
const MAX_FORM_BYTES = 16 * 1024;

/** What every route knows once the reader may read the API version. */
interface Readable {
  portal: PortalRow;
  settings: PlaygroundSettings;
  schemes: Record<string, Record<string, unknown>>;
  io: OAuthIO;
}

/**
 * Portal, reader, API version and playground settings, as `/playground/send` loads them.
 * @throws ApiError 404 for an unknown portal, API or version and for an API the reader may not read (the same 404).
 */
async function readable(c: Context<AppEnv>, api: string, version: string): Promise<Readable> {
  const slug = c.req.param("portal")!;
  // One D1 round trip, as /send (store/playground.ts); no operation asked.
  const call = await loadPlaygroundCall(getDb(c.env.DB), c.env.DB, c.env, slug, api, version.normalize("NFC"), null);
  if (!call) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  const { portal, settings } = call;
  const state = await readerStateWith(c, portal, call.access);
  if (!call.api || !canRead(state.reader("en"), apiLabels(state.access.policy, api, state.access.navigation))) {
    throw new ApiError(404, "not-found", `no API reference "${api.slice(0, 200)}" in this portal`);
  }
  if (!call.version) throw new ApiError(404, "not-found", `no version "${version.normalize("NFC")}" of "${api}"`);
  const header = await getHeader(c.env.MODELS, call.version.modelKey);
  return { portal, settings, schemes: header?.securitySchemes ?? {}, io: { check: authServerCheck(c, portal, settings) } };
}

/**
 * The scheme `name` with its discovery document when it is OpenID Connect.
 * @throws ApiError 400 `invalid-request` when it is not an OAuth 2.0 / OpenID Connect scheme of the version, and the
 *   discovery's errors (403 `blocked-host`, 502).
 */
async function schemeOf(r: Readable, name: string): Promise<{ scheme: OAuthScheme; discovery: Discovery | null }> {
  const raw = Object.hasOwn(r.schemes, name) ? r.schemes[name] : undefined;
  const settings = Object.hasOwn(r.settings.oauth, name) ? r.settings.oauth[name] : undefined;
  let discovery: Discovery | null = null;
  if (raw?.type === "openIdConnect") {
    const url = settings?.openIdConnectUrl ?? (typeof raw.openIdConnectUrl === "string" ? raw.openIdConnectUrl : undefined);
    if (!url) throw new ApiError(400, "unsupported-flow", `security scheme ${name.slice(0, 100)} has no openIdConnectUrl`);
    discovery = await discover(url, r.io);
  }
  const scheme = oauthScheme(name, raw, settings, discovery);
  if (!scheme) throw new ApiError(400, "invalid-request", `${name.slice(0, 100)} is not an OAuth 2.0 or OpenID Connect security scheme of this API version`);
  return { scheme, discovery };
}

function text(value: unknown, name: string, max = 200): string {
  return requiredText(value, name, max);
}

function optionalText(value: unknown, name: string, max = 256): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const v = text(value, name, max);
  // Client ids and secrets travel in form bodies and Basic credentials: printable ASCII keeps them unambiguous.
  if (!/^[\x20-\x7e]+$/.test(v)) throw new ApiError(400, "invalid-request", `"${name}" may hold printable ASCII characters only`);
  return v;
}

async function jsonBody(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  sameSiteOnly(c);
  if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    throw new ApiError(415, "unsupported-media-type", "send the request as application/json");
  }
  return readJsonObject(c.req.raw, MAX_FORM_BYTES);
}

/**
 * `return` as given: a path of this portal (dot segments resolved), or the portal home when absent.
 * @throws ApiError 400 `invalid-return` for anything else (another origin, `//host`, another portal): no open redirect.
 */
function returnPath(portal: PortalAddress, raw: unknown): string {
  if (raw === undefined || raw === null || raw === "") return `${portalBasePath(portal)}/`;
  const given = typeof raw === "string" ? raw : "";
  const safe = safeReturnPath(portal, given);
  let sameAsGiven = false;
  try {
    const url = new URL(given, "http://portal.invalid");
    sameAsGiven = url.origin === "http://portal.invalid" && given.startsWith("/") && !given.startsWith("//") && url.pathname + url.search === safe;
  } catch {
    // not a URL
  }
  if (!sameAsGiven) throw new ApiError(400, "invalid-return", `"return" must be a path of this portal (${portalBasePath(portal)}/…)`);
  return safe;
}

/**
 * The origin the authorization server sends the reader back to: the portal's public origin, or in the local
 * environment the origin the reader is on (npm start on another port, the tests).
 */
function callbackOrigin(c: Context<AppEnv>, portal: PortalRow): string {
  return isLocalEnvironment(c.env, c.req.url) ? new URL(c.req.url).origin : publicOrigin(c.env, portal);
}

/** The reader's rate-limit key, as `/send` counts it: token endpoint calls spend the playground quota. */
async function spendQuota(c: Context<AppEnv>, portal: PortalRow): Promise<void> {
  const state = await readerState(c, portal);
  if (!(await spendPlaygroundCall(c.env, portal, readerKey(c, state.identity?.readerId)))) throw rateLimited(c);
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A small page for a callback that cannot go back anywhere (no sign-in in progress): says why, links home. */
function errorPage(c: Context<AppEnv>, portal: PortalAddress, message: string): Response {
  c.header("cache-control", "private, no-store");
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">` +
      `<title>Sign-in not completed</title></head><body><main><h1>Sign-in not completed</h1><p>${escapeHtml(message)}</p>` +
      `<p><a href="${escapeHtml(`${portalBasePath(portal)}/`)}">Back to the documentation</a></p></main></body></html>`,
    400,
  );
}

/** 303 to the sign-in's return path with `#playground-error=<code>` (the Try-it panel shows it). */
function backWithError(c: Context<AppEnv>, flow: PendingFlow, code: string): Response {
  c.header("cache-control", "private, no-store");
  return c.redirect(`${flow.returnTo}#playground-error=${encodeURIComponent(code.replace(/[^a-z0-9_-]/gi, "").slice(0, 60) || "error")}`, 303);
}

async function start(c: Context<AppEnv>, params: Record<string, unknown>, post: boolean): Promise<Response> {
  sameSiteOnly(c);
  if (!post && typeof params.clientSecret === "string" && params.clientSecret !== "") {
    throw new ApiError(400, "invalid-request", "a client secret is sent with POST only (a URL ends up in histories and logs)");
  }
  const api = text(params.api, "api");
  const version = text(params.version, "version");
  const name = text(params.scheme, "scheme");
  const r = await readable(c, api, version);
  const returnTo = returnPath(r.portal, params.return);
  const requested = parseScopes(params.scopes ?? "");
  const clientSecret = optionalText(params.clientSecret, "clientSecret", 1024);
  const { scheme, discovery } = await schemeOf(r, name);
  const clientId = optionalText(params.clientId, "clientId") ?? scheme.clientId;
  if (!clientId) throw new ApiError(400, "invalid-request", `enter a client id: the portal has none for ${name.slice(0, 100)}`);
  const endpoints = flowEndpoints(scheme, "authorizationCode", discovery);
  const oidc = scheme.type === "openIdConnect";
  // OpenID Connect Core §3.1.2.1: `openid` must be asked for, or the server may not answer as OpenID Provider.
  const scopes = oidc && !requested.includes("openid") ? ["openid", ...requested] : requested;
  const flow: PendingFlow = {
    state: randomToken(), verifier: randomToken(), ...(oidc ? { nonce: randomToken() } : {}),
    api, version, scheme: name, scopes, clientId, ...(clientSecret !== undefined ? { clientSecret } : {}),
    returnTo, redirectUri: `${callbackOrigin(c, r.portal)}${portalBasePath(r.portal)}/playground/oauth/callback`,
    tokenUrl: endpoints.tokenUrl, authMethod: endpoints.authMethod,
    ...(oidc && endpoints.issuer && endpoints.jwksUri ? { issuer: endpoints.issuer, jwksUri: endpoints.jwksUri } : {}),
  };
  if (oidc && !flow.jwksUri) throw new ApiError(502, "authorization-server-error", "the OpenID Connect discovery document names no jwks_uri");
  await writeFlow(c, r.portal, flow);
  const target = new URL(endpoints.authorizationUrl!);
  target.searchParams.set("response_type", "code");
  target.searchParams.set("client_id", clientId);
  target.searchParams.set("redirect_uri", flow.redirectUri);
  if (scopes.length) target.searchParams.set("scope", scopes.join(" "));
  target.searchParams.set("state", flow.state);
  target.searchParams.set("code_challenge", await pkceChallenge(flow.verifier));
  target.searchParams.set("code_challenge_method", "S256");
  if (flow.nonce) target.searchParams.set("nonce", flow.nonce);
  c.header("cache-control", "private, no-store");
  if (post && c.req.header("sec-fetch-mode") === "navigate") return continuePage(c, target.toString());
  if (post && (c.req.header("accept") ?? "").includes("application/json")) return c.json({ location: target.toString() });
  return c.redirect(target.toString(), post ? 303 : 302);
}

/**
 * The answer to a browser's form post of `start`: a page that moves on to the authorization server by itself
 * (meta refresh, with a link for browsers that do not), not a 303. Reader pages carry `form-action 'self'`, and
 * Chromium applies it to every redirect of a form submission, so a 303 to the authorization server is blocked; a
 * new navigation from this page is not a form submission.
 */
function continuePage(c: Context<AppEnv>, url: string): Response {
  const href = escapeHtml(url);
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${href}"><link rel="icon" href="data:,">` +
      `<title>Continuing to sign in</title></head><body><main><p><a href="${href}">Continue to the sign-in page</a></p></main></body></html>`,
  );
}

export const playgroundOAuthRoutes = new Hono<AppEnv>()
  .get("/p/:portal/playground/oauth/state", async (c) => {
    c.header("cache-control", "private, no-store");
    sameSiteOnly(c); // another site cannot read the answer anyway; it must not make the Worker fetch discovery documents either
    const api = text(c.req.query("api"), "api");
    const r = await readable(c, api, text(c.req.query("version"), "version"));
    const out: Record<string, unknown> = {};
    const listed = Object.entries(r.schemes).filter(([, raw]) => raw?.type === "oauth2" || raw?.type === "openIdConnect");
    let discoveries = 0;
    // In parallel, and at most MAX_DISCOVERIES_PER_STATE discovery documents fetched: a definition listing many
    // OpenID Connect schemes must not turn one page's state request into many outbound calls.
    const described = await Promise.all(listed.map(async ([name, raw]) => {
      const settings = Object.hasOwn(r.settings.oauth, name) ? r.settings.oauth[name] : undefined;
      let scheme: OAuthScheme | null = null;
      if (raw.type === "oauth2" || discoveries++ < MAX_DISCOVERIES_PER_STATE) {
        try {
          scheme = (await schemeOf(r, name)).scheme;
        } catch {
          // Discovery failed or is refused: listed without flows, so the panel can say it cannot authorize.
        }
      }
      scheme ??= oauthScheme(name, raw, settings, null);
      return [name, scheme, scheme ? await readToken(c, r.portal, api, name) : undefined] as const;
    }));
    for (const [name, scheme, token] of described) {
      if (!scheme) continue;
      const live = !!token && (token.expiresAt === null || token.expiresAt > Date.now() || !!token.refreshToken);
      out[name] = {
        type: scheme.type, flows: scheme.flows, scopes: scheme.scopes, clientId: scheme.clientId,
        authorized: live, grantedScopes: live ? token!.scopes : [], expiresAt: live ? iso(token!.expiresAt) : null,
      };
    }
    return c.json({ schemes: out });
  })
  .get("/p/:portal/playground/oauth/start", (c) => start(c, c.req.query(), false))
  .post("/p/:portal/playground/oauth/start", async (c) => {
    sameSiteOnly(c);
    if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) {
      throw new ApiError(415, "unsupported-media-type", "post the form as application/x-www-form-urlencoded");
    }
    const form = new URLSearchParams(new TextDecoder().decode(await readBodyLimited(c.req.raw, MAX_FORM_BYTES)));
    return start(c, Object.fromEntries(form), true);
  })
  .get("/p/:portal/playground/oauth/callback", async (c) => {
    const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal"));
    const flow = await readFlow(c, portal);
    if (!flow) return errorPage(c, portal, "This sign-in expired (after 10 minutes) or was started in another browser. Start it again from the Try-it panel.");
    const q = c.req.query();
    // A forged or stale callback must not cancel the reader's real sign-in: the flow is kept on a state mismatch.
    if (typeof q.state !== "string" || q.state !== flow.state) return backWithError(c, flow, "state-mismatch");
    clearFlow(c, portal);
    // RFC 6749 §4.1.2.1: the server's own error code (access_denied, invalid_scope…), kept to its ASCII word.
    if (q.error) return backWithError(c, flow, q.error);
    if (!q.code) return backWithError(c, flow, "invalid-callback");
    try {
      const settings = await loadPlaygroundSettings(c.env.DB, portal.id);
      const io: OAuthIO = { check: authServerCheck(c, portal, settings) };
      const client = { clientId: flow.clientId, ...(flow.clientSecret !== undefined ? { clientSecret: flow.clientSecret } : {}) };
      const token = await requestToken(
        flow.tokenUrl, {
          grant_type: "authorization_code", code: q.code, redirect_uri: flow.redirectUri, code_verifier: flow.verifier,
          // Not a parameter of RFC 6749 §4.1.3, so servers ignore it (§3.2); some (oauth2-mock-server) grant only
          // the scopes named here.
          ...(flow.scopes.length ? { scope: flow.scopes.join(" ") } : {}),
        },
        client, flow.authMethod, flow.scopes, io,
      );
      if (flow.nonce) {
        if (!token.idToken) throw new ApiError(502, "invalid-id-token", "the OpenID Provider answered without an id_token");
        await verifyIdToken(token.idToken, { issuer: flow.issuer!, jwksUri: flow.jwksUri!, clientId: flow.clientId, nonce: flow.nonce }, io);
      }
      await writeToken(c, portal, flow.api, flow.scheme, {
        accessToken: token.accessToken, tokenType: token.tokenType, scopes: token.scopes, expiresAt: token.expiresAt,
        ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}), ...client,
        tokenUrl: flow.tokenUrl, authMethod: flow.authMethod, obtainedAt: Date.now(),
      });
    } catch (error) {
      if (error instanceof ApiError) return backWithError(c, flow, error.code);
      console.error("playground oauth callback error", portal.slug, error instanceof Error ? error.name : typeof error);
      return backWithError(c, flow, "internal");
    }
    c.header("cache-control", "private, no-store");
    return c.redirect(flow.returnTo, 303);
  })
  .post("/p/:portal/playground/oauth/token", async (c) => {
    c.header("cache-control", "private, no-store");
    const body = await jsonBody(c);
    const api = text(body.api, "api");
    const name = text(body.scheme, "scheme");
    const r = await readable(c, api, text(body.version, "version"));
    const scopes = parseScopes(body.scopes);
    const clientSecret = optionalText(body.clientSecret, "clientSecret", 1024);
    const { scheme, discovery } = await schemeOf(r, name);
    const clientId = optionalText(body.clientId, "clientId") ?? scheme.clientId;
    if (!clientId) throw new ApiError(400, "invalid-request", `enter a client id: the portal has none for ${name.slice(0, 100)}`);
    const endpoints = flowEndpoints(scheme, "clientCredentials", discovery);
    await spendQuota(c, r.portal);
    const client = { clientId, ...(clientSecret !== undefined ? { clientSecret } : {}) };
    const token = await requestToken(
      endpoints.tokenUrl, { grant_type: "client_credentials", ...(scopes.length ? { scope: scopes.join(" ") } : {}) }, client, endpoints.authMethod, scopes, r.io,
    );
    await writeToken(c, r.portal, api, name, {
      accessToken: token.accessToken, tokenType: token.tokenType, scopes: token.scopes, expiresAt: token.expiresAt,
      ...(token.refreshToken ? { refreshToken: token.refreshToken } : {}), ...client,
      tokenUrl: endpoints.tokenUrl, authMethod: endpoints.authMethod, obtainedAt: Date.now(),
    });
    return c.json({ scheme: name, grantedScopes: token.scopes, expiresAt: iso(token.expiresAt) });
  })
  .post("/p/:portal/playground/oauth/forget", async (c) => {
    const body = await jsonBody(c);
    const api = text(body.api, "api");
    const name = text(body.scheme, "scheme");
    const r = await readable(c, api, text(body.version, "version"));
    await forgetToken(c, r.portal, api, name);
    return c.body(null, 204);
  })
  .onError((error, c) => {
    // JSON errors; never a token, code, verifier or secret in a message or a log.
    if (error instanceof ApiError) return c.json(error.toBody(), error.status);
    console.error("playground oauth error", c.req.param("portal"), error instanceof Error ? error.name : typeof error);
    return c.json({ error: { code: "internal", message: "internal error" } }, 500);
  });
