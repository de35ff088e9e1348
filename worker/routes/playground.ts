/**
 * @module `POST /p/{portal}/playground/send`: the Try-it proxy (issue 10, docs/playground.md). Takes
 * `{"api","version","operationId","method","url","headers","body"?,"bodyEncoding"?}`, checks the reader may read
 * the API, the target against the operation's servers and the portal's `playground` settings (worker/playground/),
 * the reader's and the portal's rate limits (one D1 round trip in all, the rest cached per isolate or in the
 * Rate Limiting bindings), then sends it from the Worker and answers
 * `{"status","statusText","headers","body","bodyEncoding","size","truncated","url","redirects","timing":{"totalMs","upstreamMs"}}`,
 * or `{"error":{"code","message"}}` (403 `blocked-host` for an address it will not reach).
 */
import { portalBasePath } from "../render/shell/base-path";
import { Hono, type Context } from "hono";
import { crossSiteRequest } from "../access/api-key";
import { apiLabels } from "../access/labels";
import { PLAYGROUND_WINDOW_MS } from "../access/rate-limit";
import { canRead } from "../access/reader";
import { readerStateWith } from "../access/resolve";
import { openSession } from "../access/session";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readJsonObject } from "../http/read-json";
import { CachingResolver, CLOUDFLARE_DOH, DohResolver, type HostResolver } from "../playground/resolve";
import { encodeBody, fromBase64, PLAYGROUND_LIMITS, playgroundUserAgent, sendUpstream } from "../playground/send";
import { allowListHosts, checkTarget, hostOf, serverHosts, type TargetRules } from "../playground/target";
import { getDb } from "../store/db";
import { getHeader, getSlice } from "../store/models";
import { loadPlaygroundCall, spendPlaygroundCall, type PlaygroundSettings } from "../store/playground";
import type { PortalRow } from "../store/portals";
import { readToken, writeToken } from "../playground/oauth-cookie";
import { requestToken, type UrlCheck } from "../playground/oauth";

/** The JSON request body: a base64 body of 1 MiB plus headers fits (bytes). */
const MAX_SEND_JSON_BYTES = 2 * 1024 * 1024;
const METHODS = new Set(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY"]);

/**
 * Whether this Worker runs locally: `PORTICO_ENVIRONMENT = "local"` (wrangler.toml's top-level `[vars]`, which
 * `[env.production]` does not inherit) AND the request came to a loopback host (127.0.0.1, [::1], localhost or a
 * name under .localhost, RFC 6761: npm start's demo.localhost custom domain), so
 * a Worker deployed by mistake without `--env production` still refuses. Only then are
 * `playground.allowPrivateHosts` and a `PLAYGROUND_DOH_URL` other than Cloudflare's honoured.
 */
export function isLocalEnvironment(env: Env, requestUrl: string): boolean {
  const host = new URL(requestUrl).hostname;
  return env.PORTICO_ENVIRONMENT === "local" && (host === "127.0.0.1" || host === "[::1]" || host === "localhost" || host.endsWith(".localhost"));
}

/** One caching resolver per DoH endpoint and isolate (answers kept for their TTL, at most a minute). */
const RESOLVERS = new Map<string, HostResolver>();

/** The host resolver the proxy's checks use for this request (the test DoH responder only in the local environment). */
export function resolverFor(env: Env, requestUrl: string): HostResolver {
  const given = (env as { PLAYGROUND_DOH_URL?: string }).PLAYGROUND_DOH_URL;
  const endpoint = isLocalEnvironment(env, requestUrl) && given ? given : CLOUDFLARE_DOH;
  let resolver = RESOLVERS.get(endpoint);
  if (!resolver) RESOLVERS.set(endpoint, (resolver = new CachingResolver(new DohResolver(endpoint))));
  return resolver;
}

/** The portal's own hosts (`URL.host`): PORTICO_BASE_URL's, the portal's origin's, the request's. Never a target. */
export function ownHosts(c: Context<AppEnv>, portal: { origin: string | null }): string[] {
  return [hostOf(c.env.PORTICO_BASE_URL), hostOf(portal.origin), hostOf(c.req.url)].filter((h): h is string => !!h);
}

/**
 * The check for a URL the Worker calls on an authorization server's behalf (OIDC discovery, JWKS, token endpoint):
 * every rule of the proxy (worker/playground/target.ts) with the URL's own host as the one allowed host, since
 * the definition or portico.yaml named it as servers name the API's hosts; private addresses only when
 * `playground.allowPrivateHosts` is set and the environment is local.
 */
export function authServerCheck(c: Context<AppEnv>, portal: { origin: string | null }, settings: PlaygroundSettings): UrlCheck {
  const base = { ownHosts: ownHosts(c, portal), allowPrivate: settings.allowPrivateHosts && isLocalEnvironment(c.env, c.req.url) };
  const resolver = resolverFor(c.env, c.req.url);
  return (raw) => {
    let allowed: TargetRules["allowed"] = [];
    try {
      const url = new URL(raw);
      allowed = [{ hostname: url.hostname, port: url.port || (url.protocol === "https:" ? "443" : "80") }];
    } catch {
      // checkTarget answers 400 invalid-url
    }
    return checkTarget(raw, { ...base, allowed }, resolver);
  };
}

/**
 * The `Authorization` header for `auth.scheme`: the reader's token from its cookie, refreshed first (RFC 6749 §6,
 * at the token endpoint that issued it, through {@link authServerCheck}) when it expires within 10 s and a refresh
 * token is kept; the refreshed token is written back to the cookie.
 * @throws ApiError 400 `invalid-request` (not an OAuth scheme of this version, or not one the operation uses),
 *   401 `no-token` (none, or expired without a refresh token), or the token endpoint's refusal.
 */
async function authorizationFor(
  c: Context<AppEnv>,
  portal: PortalRow,
  api: string,
  scheme: string,
  schemes: Record<string, Record<string, unknown>>,
  security: Record<string, string[]>[] | undefined,
  settings: PlaygroundSettings,
): Promise<string> {
  const raw = Object.hasOwn(schemes, scheme) ? schemes[scheme] : undefined;
  if (!raw || (raw.type !== "oauth2" && raw.type !== "openIdConnect")) {
    throw new ApiError(400, "invalid-request", `"auth.scheme" ${scheme.slice(0, 100)} is not an OAuth 2.0 or OpenID Connect security scheme of this API version`);
  }
  if (security && security.length > 0 && !security.some((req) => Object.hasOwn(req, scheme))) {
    throw new ApiError(400, "invalid-request", `this operation does not use security scheme ${scheme.slice(0, 100)}`);
  }
  let token = await readToken(c, portal, api, scheme);
  if (!token) throw new ApiError(401, "no-token", `no token for ${scheme.slice(0, 100)}: authorize first`);
  if (token.expiresAt !== null && token.expiresAt <= Date.now() + 10_000) {
    if (!token.refreshToken) throw new ApiError(401, "no-token", `the token for ${scheme.slice(0, 100)} has expired: authorize again`);
    const fresh = await requestToken(
      token.tokenUrl, { grant_type: "refresh_token", refresh_token: token.refreshToken, ...(token.scopes.length ? { scope: token.scopes.join(" ") } : {}) },
      { clientId: token.clientId, ...(token.clientSecret !== undefined ? { clientSecret: token.clientSecret } : {}) },
      token.authMethod, token.scopes, { check: authServerCheck(c, portal, settings) },
    ).catch((error: unknown) => {
      // A refused refresh (revoked, expired refresh token) means signing in again; anything else as it is.
      if (error instanceof ApiError && error.code === "token-refused") throw new ApiError(401, "no-token", `the token for ${scheme.slice(0, 100)} could not be refreshed: authorize again`);
      throw error;
    });
    // RFC 6749 §6: the server may issue a new refresh token; if not, the old one stays valid.
    token = { ...token, accessToken: fresh.accessToken, scopes: fresh.scopes, expiresAt: fresh.expiresAt, refreshToken: fresh.refreshToken ?? token.refreshToken, obtainedAt: Date.now() };
    await writeToken(c, portal, api, scheme, token);
  }
  return `${token.tokenType} ${token.accessToken}`;
}

/**
 * `value` as a non-empty string of at most `max` characters (the playground's request fields).
 * @throws ApiError 400 `invalid-request` naming the field.
 */
export function requiredText(value: unknown, name: string, max: number): string {
  if (typeof value !== "string" || value.length === 0) throw new ApiError(400, "invalid-request", `"${name}" must be a non-empty string`);
  if (value.length > max) throw new ApiError(400, "invalid-request", `"${name}" is longer than ${max} characters`);
  return value;
}

function field(body: Record<string, unknown>, name: string, max = 2048): string {
  return requiredText(body[name], name, max);
}

interface SendBody {
  api: string;
  version: string;
  operationId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  /** `auth.scheme`: the OAuth scheme whose token (from the reader's cookie) the Worker adds as Authorization. */
  authScheme?: string;
}

/** @throws ApiError 400 naming the field, 413 for a body over the cap. */
function parseSendBody(json: Record<string, unknown>): SendBody {
  const method = field(json, "method", 16).toUpperCase();
  if (!METHODS.has(method)) throw new ApiError(400, "invalid-request", `"method" ${method} is not an HTTP method of OpenAPI`);
  const headers = json.headers ?? {};
  if (!headers || typeof headers !== "object" || Array.isArray(headers) || !Object.values(headers).every((v) => typeof v === "string")) {
    throw new ApiError(400, "invalid-request", `"headers" must be an object of strings`);
  }
  const encoding = json.bodyEncoding ?? "utf8";
  if (encoding !== "utf8" && encoding !== "base64") throw new ApiError(400, "invalid-request", `"bodyEncoding" must be "utf8" or "base64"`);
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (json.body !== undefined && json.body !== null) {
    if (typeof json.body !== "string") throw new ApiError(400, "invalid-request", `"body" must be a string`);
    body = encoding === "base64" ? fromBase64(json.body) : new TextEncoder().encode(json.body);
    if (body.byteLength > PLAYGROUND_LIMITS.maxRequestBytes) throw new ApiError(413, "body-too-large", `the request body is over ${PLAYGROUND_LIMITS.maxRequestBytes} bytes`);
    if (method === "GET" || method === "HEAD") throw new ApiError(400, "invalid-request", `a ${method} request has no body`);
  }
  return {
    api: field(json, "api", 200), version: field(json, "version", 200).normalize("NFC"), operationId: field(json, "operationId", 1000),
    method, url: field(json, "url", 8192), headers: headers as Record<string, string>, body, authScheme: parseAuth(json.auth),
  };
}

function parseAuth(auth: unknown): string | undefined {
  if (auth === undefined || auth === null) return undefined;
  const scheme = (auth as { scheme?: unknown }).scheme;
  if (typeof auth !== "object" || Array.isArray(auth) || typeof scheme !== "string" || scheme.length === 0 || scheme.length > 200) {
    throw new ApiError(400, "invalid-request", `"auth" must be {"scheme": "<security scheme name>"}`);
  }
  return scheme;
}

/** Who counts as one reader for the rate limit: the signed-in reader, else the client IP. */
export function readerKey(c: Context<AppEnv>, readerId: string | undefined): string {
  return readerId ? `reader:${readerId}` : `ip:${c.req.header("cf-connecting-ip") ?? "unknown"}`;
}

/** Spends one call of this request's reader (its session opened for `portal`) on `portal`; false when over a limit. */
async function spend(c: Context<AppEnv>, portal: { id: number; slug: string }): Promise<boolean> {
  // Only a bucket name: a revoked session still names the reader it counted against (the call itself is
  // authorised later, against the portal's current session version).
  const session = await openSession(c, portal);
  return spendPlaygroundCall(c.env, portal, readerKey(c, session?.identity.readerId));
}

/** Only the portal's own pages use the playground (CSRF): another site must not spend a reader's quota or tokens. */
export function sameSiteOnly(c: Context<AppEnv>): void {
  if (crossSiteRequest(c)) throw new ApiError(403, "cross-site", "the playground only answers the portal's own pages");
}

/** The answer to a call over the reader's or the portal's limit (429, `Retry-After` the window). */
export function rateLimited(c: Context<AppEnv>): ApiError {
  c.header("retry-after", String(PLAYGROUND_WINDOW_MS / 1000));
  return new ApiError(429, "rate-limited", "too many playground calls; wait a minute and try again");
}

/**
 * Portal slug → id as D1 last answered, per isolate (bounded), so the rate limit can start beside the D1 read.
 * Only a hint: the id D1 gives decides which limit counts (a portal made again under the slug is spent again).
 */
const PORTAL_IDS = new Map<string, number>();
const MAX_PORTAL_IDS = 256;

export const playgroundRoutes = new Hono<AppEnv>()
  .post("/p/:portal/playground/send", async (c) => {
    const started = Date.now();
    c.header("cache-control", "private, no-store");
    // Only the portal's own pages call it: another site must not spend a reader's quota or reach gated APIs.
    sameSiteOnly(c);
    if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
      throw new ApiError(415, "unsupported-media-type", "send the request as application/json");
    }
    const input = parseSendBody(await readJsonObject(c.req.raw, MAX_SEND_JSON_BYTES));
    const slug = c.req.param("portal");
    // The rate limit starts beside the D1 read when this isolate already knows the portal's id (the limiter's keys
    // and the session's audience need it); it is confirmed against D1's answer below. So calls later refused for a
    // missing API, version or operation can spend quota too.
    const knownId = PORTAL_IDS.get(slug);
    const early = knownId === undefined ? undefined : spend(c, { id: knownId, slug });
    early?.catch(() => {}); // awaited below, or dropped when the call is refused first
    const parsed = Date.now();
    // One D1 round trip: portal, access inputs, API, version, operation (store/playground.ts). The reference's own
    // answer is held back until the reader is known to be allowed, so a gated API's versions stay secret.
    const call = await loadPlaygroundCall(getDb(c.env.DB), c.env.DB, c.env, slug, input.api, input.version, input.operationId);
    const loaded = Date.now();
    if (!call) throw new ApiError(404, "not-found", `no portal "${slug}"`);
    const { portal, settings } = call;
    if (knownId !== portal.id) {
      if (PORTAL_IDS.size >= MAX_PORTAL_IDS) PORTAL_IDS.delete(PORTAL_IDS.keys().next().value!);
      PORTAL_IDS.set(slug, portal.id);
    }
    const state = await readerStateWith(c, portal, call.access);
    // A gated API is the very 404 of a missing one, as on reference pages.
    if (!call.api || !canRead(state.reader("en"), apiLabels(state.access.policy, input.api, state.access.navigation))) {
      throw new ApiError(404, "not-found", `no API reference "${input.api}" in this portal`);
    }
    const version = call.version;
    if (!version) throw new ApiError(404, "not-found", `no version "${input.version}" of "${input.api}"`);
    const operation = call.operation;
    if (!operation) throw new ApiError(404, "not-found", `no operation "${input.operationId}" in ${input.api} ${version.label}`);
    if (operation.method.toUpperCase() !== input.method) {
      throw new ApiError(400, "invalid-request", `operation ${input.operationId} is ${operation.method.toUpperCase()}, not ${input.method}`);
    }
    // A limit spent under an id D1 no longer gives this slug (the portal was made again) is spent again, right.
    const allowed = early !== undefined && knownId === portal.id ? early : spend(c, portal);
    // The slice (KV, cached per isolate), then the first URL's check (its DNS answers, cached per isolate) while the
    // limiter answers: nothing goes out before the limit allows it, and a refused call is 429 whatever its URL.
    const slice = await getSlice(c.env.MODELS, version.modelKey, { chunk: operation.chunk, offset: operation.offset, length: operation.length });
    if (!slice) {
      await allowed; // spent all the same
      throw new ApiError(404, "not-found", `operation ${input.operationId} is not available`);
    }
    const rules: TargetRules = {
      allowed: [...serverHosts(slice.servers), ...allowListHosts(settings.allowHosts)],
      ownHosts: ownHosts(c, portal),
      allowPrivate: settings.allowPrivateHosts && isLocalEnvironment(c.env, c.req.url),
    };
    const resolver = resolverFor(c.env, c.req.url);
    const firstCheck = checkTarget(input.url, rules, resolver);
    firstCheck.catch(() => {}); // its refusal is thrown by sendUpstream, after the limit's
    const read = Date.now();
    if (!(await allowed)) {
      throw rateLimited(c);
    }
    const limited = Date.now();

    if (input.authScheme !== undefined) {
      // With `auth`, the version's security schemes (its header, cached per isolate).
      const schemes = (await getHeader(c.env.MODELS, version.modelKey).catch(() => null))?.securitySchemes ?? {};
      const authorization = await authorizationFor(c, portal, input.api, input.authScheme, schemes, slice.security, settings);
      // The token replaces whatever Authorization the reader wrote; a redirect to another origin drops it (send.ts).
      for (const name of Object.keys(input.headers)) if (name.toLowerCase() === "authorization") delete input.headers[name];
      input.headers.authorization = authorization;
    }
    const origin = publicOrigin(c.env, portal);
    const checked = Date.now();
    // The first URL's check was started above; every redirect's is made as it comes (send.ts).
    let first = true;
    const res = await sendUpstream(input, playgroundUserAgent(`${origin}${portalBasePath(portal)}/`), (url) => {
      if (first && url === input.url) {
        first = false;
        return firstCheck;
      }
      first = false;
      return checkTarget(url, rules, resolver);
    });
    // checks = body + d1 + (session, slice) + limit (+ auth); workerd's clock moves only on I/O, so each is a wait.
    c.header("server-timing", `checks;dur=${checked - started}, body;dur=${parsed - started}, d1;dur=${loaded - parsed}, limit;dur=${limited - read}, upstream;dur=${res.upstreamMs}`);
    const encoded = encodeBody(res.body, res.headers["content-type"], res.truncated);
    return c.json({
      status: res.status, statusText: res.statusText, headers: res.headers, ...encoded, size: res.body.byteLength,
      truncated: res.truncated, url: res.url, redirects: res.redirects,
      timing: { totalMs: Date.now() - started, upstreamMs: res.upstreamMs },
    });
  })
  .onError((error, c) => {
    // JSON errors whatever the reader's state; never the request's headers or body in a message or a log.
    if (error instanceof ApiError) return c.json(error.toBody(), error.status);
    // Logged by name only: a platform error's message can quote the reader's URL, headers or body.
    console.error("playground error", c.req.param("portal"), error instanceof Error ? error.name : typeof error);
    return c.json({ error: { code: "internal", message: "internal error" } }, 500);
  });
