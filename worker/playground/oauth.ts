/**
 * @module OAuth 2.0 done by the Worker for the playground (issue 10, docs/playground.md "OAuth 2.0"): the security
 * schemes a reader may authorize (`oauth2` and `openIdConnect`, with the portal's `playground.oauth` overrides),
 * PKCE (RFC 7636, S256 only), the token endpoint calls (authorization code RFC 6749 §4.1.3, client credentials
 * §4.4, refresh §6), OpenID Connect discovery (OpenID Connect Discovery 1.0 §4, cached per isolate) and the
 * id_token check (OpenID Connect Core 1.0 §3.1.3.7: signature against the issuer's JWKS, `iss`, `aud`, `nonce`).
 *
 * Every URL the Worker itself calls (discovery, JWKS, token endpoint) goes through a `check` function, the proxy's
 * SSRF rules (target.ts) applied to that URL's own host, and no redirect is followed: a token request carries
 * credentials, and a discovery document that moves is not the one the definition named. Nothing here logs a
 * token, code, verifier or secret; error messages name what went wrong, never those values.
 */
import { base64url, createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import type { OAuthSchemeSettings } from "../content/types";
import { ApiError } from "../http/errors";
import { readStreamCapped } from "../lib/read-stream";

/** OpenAPI flow names (OAuth Flows Object) as the contract's `flows` lists them. */
export type FlowName = "authorizationCode" | "clientCredentials" | "implicit" | "password";

/** A security scheme the playground can authorize, merged from the definition and the portal's settings. */
export interface OAuthScheme {
  name: string;
  type: "oauth2" | "openIdConnect";
  /** Flows the definition declares (for OpenID Connect: from the discovery document's `grant_types_supported`). */
  flows: FlowName[];
  /** Scope → description, every flow's together (OpenID Connect: `scopes_supported`, no descriptions). */
  scopes: Record<string, string>;
  /** The portal's default client id (`playground.oauth.<scheme>.clientId`), or null. */
  clientId: string | null;
  /** Per flow: authorization endpoint and token endpoint, overrides applied (absent when unknown). */
  authorizationUrl?: string;
  tokenUrl?: string;
  clientCredentialsTokenUrl?: string;
  openIdConnectUrl?: string;
}

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1; OIDC `token_endpoint_auth_methods_supported`). */
export type ClientAuthMethod = "basic" | "post";

/** Endpoints of one flow, ready to use. */
export interface FlowEndpoints {
  authorizationUrl?: string;
  tokenUrl: string;
  authMethod: ClientAuthMethod;
  /** OpenID Connect only: the discovery document's `issuer` and `jwks_uri`, for the id_token check. */
  issuer?: string;
  jwksUri?: string;
}

/** What a token endpoint granted (RFC 6749 §5.1), normalised. */
export interface TokenSet {
  accessToken: string;
  /** Always "Bearer": other token types (DPoP, MAC) need proofs the playground does not make and are refused. */
  tokenType: "Bearer";
  /** The granted scopes: the answer's `scope`, else the requested ones (RFC 6749 §5.1). */
  scopes: string[];
  /** Epoch milliseconds, or null when the server did not say (`expires_in` absent). */
  expiresAt: number | null;
  refreshToken?: string;
  idToken?: string;
}

/** Checks a URL the Worker is about to call (target.ts rules) and returns it parsed; throws ApiError 403/400/502. */
export type UrlCheck = (url: string) => Promise<URL>;

/** Limits of the Worker's own calls to authorization servers. */
export const OAUTH_LIMITS = {
  /** Each discovery, JWKS or token call, milliseconds. */
  timeoutMs: 10_000,
  /** Largest answer read (bytes); discovery documents and token answers are a few kilobytes. */
  maxAnswerBytes: 64 * 1024,
  /** Longest access or refresh token kept (characters); larger ones would not fit a cookie. */
  maxTokenChars: 3000,
  /** Discovery documents and JWKS kept per isolate, and for how long (milliseconds). */
  cacheEntries: 64,
  cacheMs: 10 * 60_000,
} as const;

/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** Asymmetric JWS algorithms an id_token may use (HS* would need the client secret as the key: not supported). */
const ID_TOKEN_ALGS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/**
 * Parses a reader's scopes: space separated (the `start` form) or a list (the `token` JSON), each an RFC 6749
 * scope-token, at most 50 and 2,000 characters together; duplicates dropped.
 * @throws ApiError 400 `invalid-request`.
 */
export function parseScopes(raw: unknown): string[] {
  const list = typeof raw === "string" ? raw.split(" ").filter(Boolean) : Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : null;
  if (!list || !list.every((s): s is string => typeof s === "string" && SCOPE_TOKEN.test(s))) {
    throw new ApiError(400, "invalid-request", `"scopes" must be scope names (printable ASCII without spaces, quotes or backslashes)`);
  }
  const scopes = [...new Set(list)];
  if (scopes.length > 50 || scopes.join(" ").length > 2000) throw new ApiError(400, "invalid-request", `at most 50 scopes, 2,000 characters together`);
  return scopes;
}

function scopesOf(flow: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(flow) && isObject(flow.scopes)) for (const [k, v] of Object.entries(flow.scopes)) out[k] = typeof v === "string" ? v : "";
  return out;
}

/**
 * The scheme `name` of a definition (`components.securitySchemes`, `$ref`s already resolved) as the playground
 * sees it, with the portal's overrides; null when it is not `oauth2` or `openIdConnect`. An `openIdConnect`
 * scheme's flows and scopes come from its discovery document (pass it when fetched; else none are listed).
 */
export function oauthScheme(name: string, raw: unknown, settings: OAuthSchemeSettings | undefined, discovery?: Discovery | null): OAuthScheme | null {
  if (!isObject(raw)) return null;
  const clientId = settings?.clientId ?? null;
  if (raw.type === "oauth2") {
    const flows = isObject(raw.flows) ? raw.flows : {};
    const names = (["authorizationCode", "clientCredentials", "implicit", "password"] as const).filter((f) => isObject(flows[f]));
    const scopes = Object.assign({}, ...names.map((f) => scopesOf(flows[f]))) as Record<string, string>;
    const code = isObject(flows.authorizationCode) ? flows.authorizationCode : {};
    const cc = isObject(flows.clientCredentials) ? flows.clientCredentials : {};
    return {
      name, type: "oauth2", flows: names, scopes, clientId,
      authorizationUrl: settings?.authorizationUrl ?? str(code.authorizationUrl),
      tokenUrl: settings?.tokenUrl ?? str(code.tokenUrl),
      clientCredentialsTokenUrl: settings?.tokenUrl ?? str(cc.tokenUrl),
    };
  }
  if (raw.type === "openIdConnect") {
    const openIdConnectUrl = settings?.openIdConnectUrl ?? str(raw.openIdConnectUrl);
    const grants = discovery ? discovery.grantTypes : [];
    const flows: FlowName[] = [];
    if (grants.includes("authorization_code")) flows.push("authorizationCode");
    if (grants.includes("client_credentials")) flows.push("clientCredentials");
    const scopes: Record<string, string> = { openid: "" };
    for (const s of discovery?.scopes ?? []) scopes[s] = "";
    return {
      name, type: "openIdConnect", flows, scopes, clientId, openIdConnectUrl,
      authorizationUrl: settings?.authorizationUrl ?? discovery?.authorizationEndpoint,
      tokenUrl: settings?.tokenUrl ?? discovery?.tokenEndpoint,
      clientCredentialsTokenUrl: settings?.tokenUrl ?? discovery?.tokenEndpoint,
    };
  }
  return null;
}

/** The endpoints of `flow` for `scheme` (discovery already applied). @throws ApiError 400 `unsupported-flow`. */
export function flowEndpoints(scheme: OAuthScheme, flow: "authorizationCode" | "clientCredentials", discovery?: Discovery | null): FlowEndpoints {
  if (!scheme.flows.includes(flow) && !(flow === "authorizationCode" && scheme.authorizationUrl && scheme.tokenUrl)) {
    throw new ApiError(400, "unsupported-flow", `security scheme ${scheme.name} has no ${flow} flow`);
  }
  const tokenUrl = flow === "authorizationCode" ? scheme.tokenUrl : scheme.clientCredentialsTokenUrl;
  if (!tokenUrl || (flow === "authorizationCode" && !scheme.authorizationUrl)) {
    throw new ApiError(400, "unsupported-flow", `security scheme ${scheme.name} names no ${flow === "authorizationCode" ? "authorization and token" : "token"} endpoint`);
  }
  for (const url of [tokenUrl, flow === "authorizationCode" ? scheme.authorizationUrl! : tokenUrl]) {
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new ApiError(400, "unsupported-flow", `security scheme ${scheme.name} has an endpoint that is not an absolute http(s) URL`);
  }
  // RFC 6749 §2.3.1: servers MUST support Basic; use the body only when discovery says Basic is not supported.
  const methods = discovery?.authMethods;
  const authMethod: ClientAuthMethod = methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post") ? "post" : "basic";
  return {
    tokenUrl, authMethod,
    ...(flow === "authorizationCode" ? { authorizationUrl: scheme.authorizationUrl } : {}),
    ...(discovery ? { issuer: discovery.issuer, jwksUri: discovery.jwksUri } : {}),
  };
}

/** Random URL-safe text of `bytes` random bytes (state, nonce, PKCE verifier: 32 bytes → 43 characters). */
export function randomToken(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** RFC 7636 §4.2 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

/** What the Worker calls an authorization server with; `fetcher` is the platform's `fetch` unless given (tests). */
export interface OAuthIO {
  check: UrlCheck;
  fetcher?: typeof fetch;
}

/**
 * One call to an authorization server: `check` first, no redirect followed, one timeout, the answer read up to
 * {@link OAUTH_LIMITS}.maxAnswerBytes and parsed as JSON.
 * @returns status and parsed JSON (null when the body is not JSON).
 * @throws ApiError from `check`, 502 `authorization-server-unreachable` / `authorization-server-error`.
 */
async function callServer(url: string, init: RequestInit, io: OAuthIO, what: string): Promise<{ status: number; json: unknown }> {
  const target = await io.check(url);
  const fetcher = io.fetcher ?? ((input, i) => fetch(input, i));
  let res: Response;
  try {
    res = await fetcher(target.toString(), { ...init, redirect: "manual", signal: AbortSignal.timeout(OAUTH_LIMITS.timeoutMs) });
  } catch (error) {
    const timeout = (error as Error)?.name === "TimeoutError" || (error as Error)?.name === "AbortError";
    throw new ApiError(502, "authorization-server-unreachable", timeout ? `the ${what} at ${target.host} did not answer within ${OAUTH_LIMITS.timeoutMs / 1000} s` : `could not reach the ${what} at ${target.host}`);
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    throw new ApiError(502, "authorization-server-error", `the ${what} at ${target.host} redirected (${res.status}); redirects are not followed`);
  }
  const { bytes, truncated } = await readStreamCapped(res.body, OAUTH_LIMITS.maxAnswerBytes);
  if (truncated) throw new ApiError(502, "authorization-server-error", `the ${what} at ${target.host} answered more than ${OAUTH_LIMITS.maxAnswerBytes / 1024} KiB`);
  let json: unknown = null;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    // not JSON: the caller says what it expected
  }
  return { status: res.status, json };
}

/** The parts of an OpenID Provider's discovery document the playground uses. */
export interface Discovery {
  issuer: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  jwksUri?: string;
  scopes: string[];
  /** `grant_types_supported`; the spec's default when absent: authorization_code and implicit. */
  grantTypes: string[];
  authMethods?: string[];
}

const DISCOVERIES = new Map<string, { value: Discovery; until: number }>();
const JWKS = new Map<string, { value: JSONWebKeySet; until: number }>();

function cached<T>(map: Map<string, { value: T; until: number }>, key: string): T | undefined {
  const hit = map.get(key);
  if (hit && hit.until > Date.now()) return hit.value;
  map.delete(key);
  return undefined;
}

function keep<T>(map: Map<string, { value: T; until: number }>, key: string, value: T): void {
  map.set(key, { value, until: Date.now() + OAUTH_LIMITS.cacheMs });
  for (const oldest of map.keys()) {
    if (map.size <= OAUTH_LIMITS.cacheEntries) break;
    map.delete(oldest);
  }
}

const WELL_KNOWN = "/.well-known/openid-configuration";

/**
 * Fetches (or takes from the per-isolate cache, 10 minutes; `check` runs either way) the discovery document at `url`. When `url` is the
 * well-known location under an issuer, the document's `issuer` must be that issuer (Discovery §4.3).
 * @throws ApiError 403 from `check`, 502 `authorization-server-*` for an unreachable or malformed document.
 */
export async function discover(url: string, io: OAuthIO): Promise<Discovery> {
  const hit = cached(DISCOVERIES, url);
  // The address rules still run for a cached document: another portal's settings may not allow that host.
  if (hit) return io.check(url).then(() => hit);
  const { status, json } = await callServer(url, { headers: { accept: "application/json" } }, io, "OpenID Connect discovery document");
  if (status !== 200 || !isObject(json) || !str(json.issuer)) {
    throw new ApiError(502, "authorization-server-error", `the OpenID Connect discovery document answered ${status} without an issuer`);
  }
  const issuer = json.issuer as string;
  const path = new URL(url);
  if (path.pathname.endsWith(WELL_KNOWN)) {
    const expected = `${path.origin}${path.pathname.slice(0, -WELL_KNOWN.length)}`;
    if (issuer.replace(/\/$/, "") !== expected.replace(/\/$/, "")) {
      throw new ApiError(502, "authorization-server-error", `the discovery document's issuer is not the issuer it was fetched from`);
    }
  }
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(0, 200) : undefined);
  const value: Discovery = {
    issuer,
    authorizationEndpoint: str(json.authorization_endpoint),
    tokenEndpoint: str(json.token_endpoint),
    jwksUri: str(json.jwks_uri),
    scopes: (strings(json.scopes_supported) ?? []).filter((s) => SCOPE_TOKEN.test(s)),
    grantTypes: strings(json.grant_types_supported) ?? ["authorization_code", "implicit"],
    authMethods: strings(json.token_endpoint_auth_methods_supported),
  };
  keep(DISCOVERIES, url, value);
  return value;
}

/** The client as the token endpoint sees it: the portal's or the reader's id, and the reader's secret if entered. */
export interface OAuthClient {
  clientId: string;
  clientSecret?: string;
}

/** RFC 6749 Appendix B + §2.3.1: id and secret are form-encoded before the Basic encoding. */
function basicCredentials(client: OAuthClient): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  const bytes = new TextEncoder().encode(`${enc(client.clientId)}:${enc(client.clientSecret ?? "")}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/**
 * POSTs a token request (`grant_type` and its parameters) to `tokenUrl`, authenticating the client: with a secret,
 * HTTP Basic (or the body when `authMethod` is "post"); without one (a public client), `client_id` in the body.
 * @param requested the scopes asked for, reported as granted when the answer has no `scope` (RFC 6749 §5.1).
 * @throws ApiError 400 `token-refused` (the server's OAuth error code in the message), 502
 *   `authorization-server-*` (unreachable, not JSON, no access_token, a token type other than Bearer, or a token
 *   too long to keep), 403 from `check`.
 */
export async function requestToken(
  tokenUrl: string,
  params: Record<string, string>,
  client: OAuthClient,
  authMethod: ClientAuthMethod,
  requested: string[],
  io: OAuthIO,
): Promise<TokenSet> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (client.clientSecret !== undefined && authMethod === "basic") headers.authorization = basicCredentials(client);
  else {
    body.set("client_id", client.clientId);
    if (client.clientSecret !== undefined) body.set("client_secret", client.clientSecret);
  }
  const { status, json } = await callServer(tokenUrl, { method: "POST", headers, body: body.toString() }, io, "token endpoint");
  if (isObject(json) && typeof json.error === "string") {
    // RFC 6749 §5.2 error codes are ASCII words; anything else is cut to a safe, short form.
    const code = json.error.replace(/[^\x20-\x7e]/g, "").slice(0, 60);
    const description = typeof json.error_description === "string" ? `: ${json.error_description.replace(/[^\x20-\x7e]/g, "").slice(0, 200)}` : "";
    throw new ApiError(400, "token-refused", `the authorization server refused the token request (${code}${description})`);
  }
  if (status !== 200 || !isObject(json)) throw new ApiError(502, "authorization-server-error", `the token endpoint answered ${status} without a token`);
  const accessToken = json.access_token;
  if (typeof accessToken !== "string" || !/^[\x21-\x7e]+$/.test(accessToken)) {
    throw new ApiError(502, "authorization-server-error", "the token endpoint's answer has no usable access_token");
  }
  if (typeof json.token_type !== "string" || json.token_type.toLowerCase() !== "bearer") {
    throw new ApiError(502, "authorization-server-error", `the token type ${String(json.token_type).slice(0, 30)} is not supported (Bearer only)`);
  }
  const refresh = typeof json.refresh_token === "string" && /^[\x21-\x7e]+$/.test(json.refresh_token) ? json.refresh_token : undefined;
  if (accessToken.length > OAUTH_LIMITS.maxTokenChars || (refresh?.length ?? 0) > OAUTH_LIMITS.maxTokenChars) {
    throw new ApiError(502, "token-too-large", `the token is longer than ${OAUTH_LIMITS.maxTokenChars} characters and cannot be kept in the reader's cookie`);
  }
  const expiresIn = typeof json.expires_in === "number" ? json.expires_in : typeof json.expires_in === "string" ? Number(json.expires_in) : NaN;
  return {
    accessToken,
    tokenType: "Bearer",
    scopes: typeof json.scope === "string" ? json.scope.split(" ").filter((s) => SCOPE_TOKEN.test(s)).slice(0, 50) : requested,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
    ...(refresh ? { refreshToken: refresh } : {}),
    ...(typeof json.id_token === "string" ? { idToken: json.id_token } : {}),
  };
}

/**
 * Checks an OpenID Connect id_token (Core 1.0 §3.1.3.7): signed by a key of the issuer's JWKS (fetched through
 * `check`, cached 10 minutes, fetched again once when no key matches), an asymmetric algorithm, `iss` = the
 * discovery issuer, `aud` containing the client id, unexpired, and `nonce` equal to the one sent.
 * @throws ApiError 502 `invalid-id-token` naming the failed check.
 */
export async function verifyIdToken(idToken: string, expected: { issuer: string; jwksUri: string; clientId: string; nonce: string }, io: OAuthIO): Promise<void> {
  const load = async (fresh: boolean) => {
    const hit = fresh ? undefined : cached(JWKS, expected.jwksUri);
    if (hit) return io.check(expected.jwksUri).then(() => hit);
    const { status, json } = await callServer(expected.jwksUri, { headers: { accept: "application/json" } }, io, "JWKS");
    if (status !== 200 || !isObject(json) || !Array.isArray(json.keys)) throw new ApiError(502, "invalid-id-token", "the issuer's JWKS could not be read");
    keep(JWKS, expected.jwksUri, json as unknown as JSONWebKeySet);
    return json as unknown as JSONWebKeySet;
  };
  const verify = async (jwks: JSONWebKeySet) =>
    jwtVerify(idToken, createLocalJWKSet(jwks), { issuer: expected.issuer, audience: expected.clientId, algorithms: ID_TOKEN_ALGS, requiredClaims: ["exp", "iat", "sub"] });
  let payload;
  try {
    try {
      ({ payload } = await verify(await load(false)));
    } catch (error) {
      // A key rotated since the JWKS was cached: read it once more.
      if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY") throw error;
      ({ payload } = await verify(await load(true)));
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(502, "invalid-id-token", `the id_token failed its check (${(error as { code?: string }).code ?? "invalid"})`);
  }
  if (payload.nonce !== expected.nonce) throw new ApiError(502, "invalid-id-token", "the id_token's nonce is not the one this sign-in sent");
}
