/**
 * The MCP endpoint's OAuth 2.1 authorization server (worker/access/oauth.ts, routes/mcp-oauth.ts) inside workerd: the
 * official TypeScript client's OAuth support (StreamableHTTPClientTransport with an OAuthClientProvider) discovers it
 * from a private portal's 401, registers (RFC 7591), sends the reader to the authorization page, where they sign in
 * with the portal's password and Allow; the code is exchanged with PKCE and the tools answer with the gated pages.
 * Refused: a wrong PKCE verifier, a code used twice, an expired token, a token at another portal or another surface,
 * a token after the reader signed out; Deny answers access_denied.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS, MARKER, patchAccess, resetSignInLimits, setUpPortal, signInWithPassword } from "../readers/fixture";

/** The service's base URL in this project (vitest.config.ts): OAuth needs https off loopback. */
const BASE = "https://portico.test";
const PRIVATE = "oauth-private";
const PUBLIC = "oauth-public";
const REDIRECT = "http://127.0.0.1:33418/callback";

const sfetch = (url: string | URL, init?: RequestInit) => SELF.fetch(String(url), init as RequestInit);

/** An MCP client's OAuth state, kept in memory as a CLI client keeps it. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() { return REDIRECT; }
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [REDIRECT], client_name: "Portico test client", token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
  }
  state() { return "state-1234"; }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}

function transport(slug: string, provider?: OAuthClientProvider, path = "mcp"): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${BASE}/p/${slug}/${path}`), { fetch: sfetch, ...(provider ? { authProvider: provider } : {}) });
}

function newClient(): Client {
  return new Client({ name: "portico-oauth-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
}

/** The reader's browser at the authorization URL: the consent page, then Allow (or Deny); the redirect's query. */
async function approve(url: URL | string, cookie: string, decision: "allow" | "deny" = "allow"): Promise<URLSearchParams> {
  const page = await SELF.fetch(String(url), { redirect: "manual", headers: { cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("Allow Portico test client to read these docs?");
  expect(page.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:33418");
  const answer = await SELF.fetch(String(url), {
    method: "POST", redirect: "manual", body: `decision=${decision}`,
    headers: { cookie, origin: new URL(String(url)).origin, "content-type": "application/x-www-form-urlencoded" },
  });
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location")!);
  expect(location.origin + location.pathname).toBe(REDIRECT);
  return location.searchParams;
}

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge: btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") };
}

/** Registers a public client (RFC 7591) at `slug`'s authorization server; its client_id. */
async function register(slug: string): Promise<string> {
  const res = await SELF.fetch(`${BASE}/p/${slug}/oauth/register`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: "Portico test client", token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** One authorization by hand: a code for `slug`'s MCP resource, approved by the reader of `cookie`. */
async function code(slug: string, clientId: string, cookie: string, challenge: string): Promise<string> {
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s1", resource: `${BASE}/p/${slug}/mcp` });
  const back = await approve(`${BASE}/p/${slug}/oauth/authorize?${q}`, cookie);
  expect(back.get("state")).toBe("s1");
  expect(back.get("iss")).toBe(`${BASE}/p/${slug}`);
  return back.get("code")!;
}

function exchange(slug: string, fields: Record<string, string>): Promise<Response> {
  return SELF.fetch(`${BASE}/p/${slug}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
}

function mcpCall(slug: string, token: string, path = "mcp"): Promise<Response> {
  return SELF.fetch(`${BASE}/p/${slug}/${path}`, {
    method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_page", arguments: { url: `/p/${slug}/guides/partners/deals` } } }),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
  });
}

/** A fresh access token for the reader of `cookie` at `slug`, by hand. */
async function accessToken(slug: string, cookie: string): Promise<{ access_token: string; refresh_token: string; clientId: string }> {
  const clientId = await register(slug);
  const { verifier, challenge } = await pkce();
  const res = await exchange(slug, { grant_type: "authorization_code", code: await code(slug, clientId, cookie, challenge), redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
  expect(res.status).toBe(200);
  return { ...((await res.json()) as { access_token: string; refresh_token: string }), clientId };
}

beforeAll(async () => {
  const [privateToken, publicToken] = await Promise.all([setUpPortal(PRIVATE), setUpPortal(PUBLIC)]);
  expect((await patchAccess(privateToken, { ...ACCESS, default: "private" })).status).toBe(200);
  expect((await patchAccess(publicToken, ACCESS)).status).toBe(200);
  await Promise.all([resetSignInLimits(PRIVATE), resetSignInLimits(PUBLIC)]);
}, 120_000); // several portals published: slow on a busy machine

describe("MCP OAuth", () => {
  it("publishes RFC 9728 and RFC 8414 metadata that lead from the MCP endpoint to the portal's authorization server", async () => {
    const prm = (await (await SELF.fetch(`${BASE}/.well-known/oauth-protected-resource/p/${PRIVATE}/mcp`)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({ resource: `${BASE}/p/${PRIVATE}/mcp`, authorization_servers: [`${BASE}/p/${PRIVATE}`] });
    const as = (await (await SELF.fetch(`${BASE}/.well-known/oauth-authorization-server/p/${PRIVATE}`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: `${BASE}/p/${PRIVATE}`, authorization_endpoint: `${BASE}/p/${PRIVATE}/oauth/authorize`, token_endpoint: `${BASE}/p/${PRIVATE}/oauth/token`,
      registration_endpoint: `${BASE}/p/${PRIVATE}/oauth/register`, code_challenge_methods_supported: ["S256"],
    });
  });

  it("lets the official client sign a reader in and read the gated pages", async () => {
    const provider = new MemoryProvider();
    await expect(newClient().connect(transport(PRIVATE, provider))).rejects.toThrow(UnauthorizedError);
    expect(provider.info?.client_id).toBeTruthy(); // dynamically registered
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${BASE}/p/${PRIVATE}/oauth/authorize`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    // A signed-out reader is sent to sign in first, and brought back.
    const signedOut = await SELF.fetch(String(url), { redirect: "manual" });
    expect(signedOut.status).toBe(303);
    const signIn = new URL(signedOut.headers.get("location")!, BASE);
    expect(signIn.pathname).toBe(`/p/${PRIVATE}/auth/signin`);
    expect(signIn.searchParams.get("return")).toBe(url.pathname + url.search);
    const back = await approve(url, await signInWithPassword(PRIVATE));
    const t = transport(PRIVATE, provider);
    await t.finishAuth(back.get("code")!);
    expect(provider.saved?.access_token).toBeTruthy();
    const client = newClient();
    await client.connect(transport(PRIVATE, provider));
    const page = await client.callTool({ name: "get_page", arguments: { url: `/p/${PRIVATE}/guides/partners/deals` } });
    expect(page.isError).toBeFalsy();
    expect(text(page)).toContain(`The ${MARKER} terms.`);
    const search = await client.callTool({ name: "search_docs", arguments: { query: MARKER } });
    expect((search.structuredContent as { total: number }).total).toBeGreaterThan(0);
    await client.close();
  });

  it("asks for sign-in at /mcp/signed-in of a public portal, and the token then opens its gated section", async () => {
    const anonymous = newClient();
    await anonymous.connect(transport(PUBLIC));
    expect((await anonymous.callTool({ name: "get_page", arguments: { url: `/p/${PUBLIC}/guides/partners/deals` } })).isError).toBe(true);
    await anonymous.close();
    const provider = new MemoryProvider();
    await expect(newClient().connect(transport(PUBLIC, provider, "mcp/signed-in"))).rejects.toThrow(UnauthorizedError);
    const back = await approve(provider.authorizationUrl!, await signInWithPassword(PUBLIC));
    await transport(PUBLIC, provider, "mcp/signed-in").finishAuth(back.get("code")!);
    const client = newClient();
    await client.connect(transport(PUBLIC, provider, "mcp/signed-in"));
    expect(text(await client.callTool({ name: "get_page", arguments: { url: `/p/${PUBLIC}/guides/partners/deals` } }))).toContain(`The ${MARKER} terms.`);
    await client.close();
    // The token is bound to that endpoint (its own RFC 8707 resource): the plain one refuses it.
    expect((await mcpCall(PUBLIC, provider.saved!.access_token)).status).toBe(401);
    expect(await (await mcpCall(PUBLIC, provider.saved!.access_token, "mcp/signed-in")).text()).toContain(MARKER);
  });

  it("refuses a wrong PKCE verifier and a code used twice", async () => {
    const cookie = await signInWithPassword(PRIVATE);
    const clientId = await register(PRIVATE);
    const { verifier, challenge } = await pkce();
    const wrong = await exchange(PRIVATE, { grant_type: "authorization_code", code: await code(PRIVATE, clientId, cookie, challenge), redirect_uri: REDIRECT, client_id: clientId, code_verifier: (await pkce()).verifier });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_grant");
    const once = await code(PRIVATE, clientId, cookie, challenge);
    const first = await exchange(PRIVATE, { grant_type: "authorization_code", code: once, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect(first.status).toBe(200);
    const again = await exchange(PRIVATE, { grant_type: "authorization_code", code: once, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
    // No PKCE at all: refused at the authorization endpoint, back to the client.
    const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, state: "s2" });
    const noPkce = await SELF.fetch(`${BASE}/p/${PRIVATE}/oauth/authorize?${q}`, { redirect: "manual", headers: { cookie } });
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });

  it("refuses an expired token, a token of another portal or another surface, and one whose reader signed out", async () => {
    const cookie = await signInWithPassword(PRIVATE);
    const { access_token, refresh_token, clientId } = await accessToken(PRIVATE, cookie);
    const ok = await mcpCall(PRIVATE, access_token);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(MARKER);
    // Another portal's MCP endpoint: the token is bound to this one's resource.
    const other = await mcpCall(PUBLIC, access_token);
    expect(other.status).toBe(401);
    expect(other.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // Another surface of the same portal (the Docs API): not the token's resource.
    const docs = await SELF.fetch(`${BASE}/p/${PRIVATE}/api/v1/apis`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(docs.status).toBe(401);
    // Expired: its record's expiry moved into the past (the library checks it on every use).
    const [userId, grantId] = access_token.split(":");
    const listed = await env.OAUTH_KV.list({ prefix: `token:${userId}:${grantId}:` });
    expect(listed.keys.length).toBe(1);
    const record = (await env.OAUTH_KV.get(listed.keys[0]!.name, "json")) as { expiresAt: number };
    await env.OAUTH_KV.put(listed.keys[0]!.name, JSON.stringify({ ...record, expiresAt: Math.floor(Date.now() / 1000) - 5 }));
    const expired = await mcpCall(PRIVATE, access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="https:\/\/portico\.test\/\.well-known\/oauth-protected-resource\/p\/oauth-private\/mcp", error="invalid_token"/);
    // The refresh token gives a new access token; after the reader signs out, it no longer works.
    const refreshed = await exchange(PRIVATE, { grant_type: "refresh_token", refresh_token, client_id: clientId });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { access_token: string };
    expect((await mcpCall(PRIVATE, fresh.access_token)).status).toBe(200);
    const out = await SELF.fetch(`http://portico.test/p/${PRIVATE}/auth/signout`, { method: "POST", redirect: "manual", headers: { cookie, origin: "http://portico.test" } });
    expect(out.status).toBe(303);
    expect((await mcpCall(PRIVATE, fresh.access_token)).status).toBe(401);
  });

  it("answers access_denied when the reader denies", async () => {
    const cookie = await signInWithPassword(PRIVATE);
    const clientId = await register(PRIVATE);
    const { challenge } = await pkce();
    const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s3" });
    const back = await approve(`${BASE}/p/${PRIVATE}/oauth/authorize?${q}`, cookie, "deny");
    expect(back.get("error")).toBe("access_denied");
    expect(back.get("state")).toBe("s3");
    expect(back.get("code")).toBeNull();
  });
});
