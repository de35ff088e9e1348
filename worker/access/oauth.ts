/**
 * @module The MCP endpoint's OAuth 2.1 authorization server (MCP authorization spec; issue 31), one per portal, built
 * on `@cloudflare/workers-oauth-provider` (its role API `OAuthAuthorizationServer`): RFC 8414 metadata, RFC 7591
 * dynamic client registration, the authorization code grant with PKCE S256 only, refresh tokens that rotate, RFC 7009
 * revocation, RFC 8707 resource-bound tokens, RFC 9207 `iss`. The library owns the protocol endpoints and KV storage
 * (`OAUTH_KV`: hashes of codes, tokens and secrets; props encrypted with a key only the token unwraps); Portico owns
 * the authorization endpoint (routes/mcp-oauth.ts), where the reader signs in through the portal's own ways in and
 * approves the client.
 *
 * Addresses. The issuer is the portal on the service host (`{service}/p/{slug}`): its token and registration
 * endpoints are machine paths a client reaches whatever it can resolve. The authorization endpoint is on the portal's
 * reader origin, where the reader's session cookie lives (its custom hostname when it has one); where that origin is
 * one OAuth refuses (plain http off loopback, e.g. `http://demo.localhost` under npm start) it is the service host's
 * `/p/{slug}/oauth/authorize`, which the Host router forwards to the reader origin. Resources: the MCP endpoint at the
 * portal's public address and at the service host's (`{service}/p/{slug}/mcp`), each token bound to the one its
 * client asked for.
 *
 * A token carries the reader's identity at approval (audiences, variables) and, like a session, the portal's session
 * version and the approval instant: it stops working when the portal's access settings move on or the reader signs
 * out (access/session-revocation.ts), and its grant lives no longer than a browser session (SESSION_TTL_SECONDS).
 */
import { OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { DEFAULT_BASE_URL, publicOrigin } from "../http/public-origin";
import { internalBasePath, portalBasePath } from "../render/shell/base-path";
import type { ReaderIdentity } from "./identity";
import { readerRevocationKey, revokedBefore } from "./session-revocation";
import { currentIdentity, SESSION_TTL_SECONDS } from "./session";

/** Lifetime of an MCP access token (seconds): an hour, then the client refreshes. */
export const MCP_ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Lifetime of a dynamically registered client that is not used (seconds): 30 days (each use renews it). */
export const MCP_CLIENT_TTL_SECONDS = 30 * 86_400;

/** What a grant (and every token of it) carries: the reader as approved, bound to one portal. */
export interface McpGrantProps {
  portalId: number;
  identity: ReaderIdentity;
  /** The portal's session version at approval: a change of its access settings voids the grant, as it voids sessions. */
  portalVersion: number;
  /** When the reader approved (epoch ms): a later sign-out voids the grant, as it voids sessions. */
  issuedAtMs: number;
}

/** What the addresses depend on. */
export interface OAuthPortal {
  id: number;
  slug: string;
  hostname: string | null;
  origin: string | null;
}

/** A portal's OAuth addresses (absolute URLs). */
export interface PortalOAuth {
  issuer: string;
  /** The RFC 8414 metadata URL (the well-known prefix inserted before the issuer's path, §3.1). */
  metadataUrl: string;
  authorizeEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  /**
   * The MCP endpoints' resource identifiers: `/mcp` at the public address first, then at the service host's when it
   * differs, then their `/mcp/signed-in` twins (each its own resource, as RFC 9728 §3.3 has it).
   */
  resources: string[];
}

const LOOPBACK = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

/** Whether OAuth may use `url`: https, or http on a loopback host (OAuth 2.1 §1.5, RFC 8252 §7.3; the library's rule). */
export function oauthUsable(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.test(u.hostname));
  } catch {
    return false;
  }
}

/** The service's origin (`PORTICO_BASE_URL`'s), without a trailing slash. */
export function serviceOrigin(env: { PORTICO_BASE_URL?: string }): string {
  try {
    return new URL(env.PORTICO_BASE_URL || DEFAULT_BASE_URL).origin;
  } catch {
    return DEFAULT_BASE_URL;
  }
}

/** The MCP endpoint of a portal at its public address (absolute): its RFC 9728 `resource`. */
export function mcpResource(env: { PORTICO_BASE_URL?: string }, portal: { slug: string; origin: string | null; hostname: string | null }): string {
  return `${publicOrigin(env, portal)}${portalBasePath(portal)}/mcp`;
}

/** The RFC 9728 metadata URL of a resource: the well-known prefix inserted before its path (§3.1). */
export function protectedResourceMetadataUrl(resource: string): string {
  const u = new URL(resource);
  return `${u.origin}/.well-known/oauth-protected-resource${u.pathname}`;
}

/**
 * The portal's OAuth addresses, or undefined when the service's own origin cannot carry OAuth (plain http off
 * loopback): then private portals take minted reader JWTs only.
 */
export function portalOAuth(env: { PORTICO_BASE_URL?: string }, portal: OAuthPortal): PortalOAuth | undefined {
  const service = serviceOrigin(env);
  if (!oauthUsable(service)) return undefined;
  const issuer = `${service}${internalBasePath(portal.slug)}`;
  const reader = `${publicOrigin(env, portal)}${portalBasePath(portal)}`;
  const endpoints = [...new Set([mcpResource(env, portal), `${issuer}/mcp`])].filter(oauthUsable);
  const resources = [...endpoints, ...endpoints.map((e) => `${e}/signed-in`)];
  return {
    issuer,
    metadataUrl: `${service}/.well-known/oauth-authorization-server${internalBasePath(portal.slug)}`,
    authorizeEndpoint: `${oauthUsable(reader) ? reader : issuer}/oauth/authorize`,
    tokenEndpoint: `${issuer}/oauth/token`,
    registrationEndpoint: `${issuer}/oauth/register`,
    resources,
  };
}

/** The MCP endpoints: the server, and its twin that asks every signed-out caller to sign in. */
export type McpEndpoint = "mcp" | "mcp/signed-in";

/**
 * The resource a request to an MCP endpoint is for: the endpoint at the portal's address on the request's origin
 * (its custom hostname, or the service host's `/p/{slug}`), else at the public one.
 */
export function requestResource(env: { PORTICO_BASE_URL?: string }, portal: OAuthPortal, requestUrl: string, endpoint: McpEndpoint = "mcp"): string {
  const origin = new URL(requestUrl).origin;
  const alias = `${serviceOrigin(env)}${internalBasePath(portal.slug)}/mcp`;
  const pub = mcpResource(env, portal);
  const base = new URL(pub).origin === origin ? pub : new URL(alias).origin === origin ? alias : pub;
  return endpoint === "mcp" ? base : `${base}/signed-in`;
}

const SERVERS = new Map<string, OAuthAuthorizationServer<Env>>();
const MAX_SERVERS = 256;

/**
 * The portal's authorization server (built once per address set per isolate; construction only checks the
 * configuration), or undefined when OAuth is unavailable (see {@link portalOAuth}).
 */
export function authorizationServer(env: { PORTICO_BASE_URL?: string }, portal: OAuthPortal): { server: OAuthAuthorizationServer<Env>; addresses: PortalOAuth } | undefined {
  const addresses = portalOAuth(env, portal);
  if (!addresses) return undefined;
  const key = JSON.stringify(addresses);
  let server = SERVERS.get(key);
  if (!server) {
    server = new OAuthAuthorizationServer<Env>({
      issuer: addresses.issuer,
      resources: addresses.resources,
      defaultResource: addresses.resources[0],
      authorizeEndpoint: addresses.authorizeEndpoint,
      tokenEndpoint: addresses.tokenEndpoint,
      clientRegistrationEndpoint: addresses.registrationEndpoint,
      accessTokenTTL: MCP_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTTL: SESSION_TTL_SECONDS,
      clientRegistrationTTL: MCP_CLIENT_TTL_SECONDS,
    });
    if (SERVERS.size >= MAX_SERVERS) SERVERS.delete(SERVERS.keys().next().value!);
    SERVERS.set(key, server);
  }
  return { server, addresses };
}

/** The grant's user id: the portal and a hash of the reader (the library keeps user ids readable in KV; no `:`). */
export async function grantUserId(portalId: number, readerId: string): Promise<string> {
  return `${portalId}-${(await readerRevocationKey(readerId)).slice(0, 32)}`;
}

/** Whether a bearer token has the library's access-token shape (`{user}:{grant}:{secret}`) rather than a JWT or key. */
export function isOAuthAccessToken(token: string): boolean {
  return /^[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/.test(token);
}

/** The outcome of an MCP access token. */
export type OAuthReader = { kind: "reader"; identity: ReaderIdentity } | { kind: "invalid"; reason: string };

/**
 * The reader an MCP access token stands for at `resource` of `portal`: valid (issued by this portal's authorization
 * server, bound to `resource`, not expired) and still holding (the portal's session version unchanged, no sign-out
 * of the reader since approval). Otherwise `invalid` with a reason safe to show.
 */
export async function readerFromAccessToken(env: Env, portal: OAuthPortal, access: { sessionVersion: number }, token: string, resource: string): Promise<OAuthReader> {
  const as = authorizationServer(env, portal);
  if (!as || !as.addresses.resources.includes(resource)) return { kind: "invalid", reason: "this portal issues no access tokens here" };
  const valid = await as.server.validateToken<McpGrantProps>(resource, token, env);
  if (!valid || valid.props.portalId !== portal.id) return { kind: "invalid", reason: "the access token is unknown, expired, or for another resource" };
  const p = valid.props;
  const revoked = await revokedBefore(env.SESSIONS, portal.id, await readerRevocationKey(p.identity.readerId));
  const identity = currentIdentity({ identity: p.identity, portalVersion: p.portalVersion, issuedAtMs: p.issuedAtMs, revokedBeforeMs: revoked }, access.sessionVersion);
  return identity ? { kind: "reader", identity } : { kind: "invalid", reason: "the reader signed out, or the portal's access changed, since this token was granted" };
}
