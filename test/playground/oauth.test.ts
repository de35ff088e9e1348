/**
 * OAuth 2.0 done by the Worker (`/p/{portal}/playground/oauth/*` and `auth` on `/playground/send`) against the REAL
 * oauth2-mock-server and a resource that only accepts its tokens (test/playground/oauth-setup.ts). The authorize
 * step is driven with fetch (the mock server approves at once); cookies are carried by a small jar as a browser
 * would (name=value back on the next request, Max-Age=0 deletes).
 */
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { app } from "../../worker/app";
import { discover, parseScopes, pkceChallenge, randomToken, requestToken, type OAuthIO } from "../../worker/playground/oauth";
import { LOCAL_ORIGIN, setUpPortal, testEnv } from "./fixture";

const PORTAL = "pg-oauth";
const PRIVATE_OFF = "pg-oauth-strict";
const issuer = () => inject("oauthIssuer");
const resource = () => inject("resourceOrigin");
const RETURN = `/p/${PORTAL}/reference/demo/1.0.0/getprotected`;

function demoDefinition(): string {
  const op = (operationId: string, security: unknown[]) => ({ get: { operationId, security, responses: { 200: { description: "ok" } } } });
  return JSON.stringify({
    openapi: "3.0.3", info: { title: "OAuth demo", version: "1.0.0" }, servers: [{ url: resource() }],
    paths: { "/protected": op("getProtected", [{ oauth2: ["read"] }]), "/oidc": op("getOidc", [{ oidc: [] }]), "/keyed": op("getKeyed", [{ key: [] }]) },
    components: {
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          flows: {
            authorizationCode: { authorizationUrl: "https://auth.example.invalid/authorize", tokenUrl: "https://auth.example.invalid/token", scopes: { read: "Read things", write: "Write things" } },
            clientCredentials: { tokenUrl: "https://auth.example.invalid/token", scopes: { read: "Read things" } },
          },
        },
        oidc: { type: "openIdConnect", openIdConnectUrl: "https://auth.example.invalid/.well-known/openid-configuration" },
        key: { type: "apiKey", in: "header", name: "X-Key" },
      },
    },
  });
}

function porticoYaml(allowPrivate: boolean): string {
  return [
    "name: OAuth", "audiences: [partners]", "access:", "  sections: [{ prefix: /reference/secret, audiences: [partners] }]", "playground:",
    `  allowPrivateHosts: ${allowPrivate}`, "  oauth:",
    `    oauth2: { clientId: portal-client, authorizationUrl: "${issuer()}/authorize", tokenUrl: "${issuer()}/token" }`,
    `    oidc: { clientId: portal-client, openIdConnectUrl: "${issuer()}/.well-known/openid-configuration" }`, "",
  ].join("\n");
}

beforeAll(async () => {
  await setUpPortal(PORTAL, { demo: demoDefinition(), secret: demoDefinition() }, porticoYaml(true));
  await setUpPortal(PRIVATE_OFF, { demo: demoDefinition() }, porticoYaml(false));
});

/** Cookies as a browser keeps them for the portal (paths are all under /p/{portal}/ and every call is below them). */
class Jar {
  readonly cookies = new Map<string, string>();
  readonly attributes = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      if (/max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
      this.attributes.set(name, attrs.map((a) => a.trim()).join("; "));
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; ");
  }
  tokenCookies(): string[] {
    return [...this.cookies.keys()].filter((n) => n.startsWith("portico_oauth_") && n !== "portico_oauth_flow");
  }
}

let ip = 0;

/** One request to the app as the reader's browser on the portal's own page would send it. */
async function call(jar: Jar, path: string, init: { method?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; env?: Record<string, unknown> } = {}): Promise<Response> {
  const headers: Record<string, string> = { cookie: jar.header(), "sec-fetch-site": "same-origin", "cf-connecting-ip": `203.0.113.${++ip % 250}`, ...(init.headers ?? {}) };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  const res = await app.request(`${LOCAL_ORIGIN}${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body }, testEnv(init.env));
  jar.take(res);
  return res;
}

const base = (portal = PORTAL) => `/p/${portal}/playground/oauth`;
const startQuery = (extra: Record<string, string> = {}) => new URLSearchParams({ api: "demo", version: "1.0.0", scheme: "oauth2", scopes: "read", return: RETURN, ...extra }).toString();

async function tokenLog(): Promise<{ grantType: string; codeVerifier: boolean; clientSecretInBody: boolean; basic: boolean; clientId?: string; scope?: string }[]> {
  return (await fetch(`${resource()}/__oauth/log`)).json();
}

/** Follows the authorization server's redirect (it approves at once) and returns the callback path + query. */
async function authorize(location: string, tamper?: (url: URL) => void): Promise<string> {
  const url = new URL(location);
  tamper?.(url);
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("location")!);
  expect(back.origin).toBe(LOCAL_ORIGIN);
  return back.pathname + back.search;
}

/** start → authorize → callback; returns the callback's answer. */
async function signIn(jar: Jar, extra: Record<string, string> = {}, tamper?: (url: URL) => void): Promise<Response> {
  const start = await call(jar, `${base()}/start?${startQuery(extra)}`);
  expect(start.status).toBe(302);
  return call(jar, await authorize(start.headers.get("location")!, tamper));
}

async function send(jar: Jar, operationId: string, path: string, scheme?: string): Promise<Response> {
  return call(jar, `/p/${PORTAL}/playground/send`, {
    json: { api: "demo", version: "1.0.0", operationId, method: "GET", url: `${resource()}${path}`, headers: { authorization: "Bearer typed-by-reader" }, ...(scheme ? { auth: { scheme } } : {}) },
  });
}

beforeEach(async () => {
  await fetch(`${resource()}/__oauth/log`, { method: "DELETE" });
});

describe("GET .../oauth/state", () => {
  it("lists the version's OAuth and OpenID Connect schemes (discovery for OIDC), none authorized yet, never cached", async () => {
    const res = await call(new Jar(), `${base()}/state?api=demo&version=1.0.0`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const { schemes } = (await res.json()) as { schemes: Record<string, any> };
    expect(Object.keys(schemes).sort()).toEqual(["oauth2", "oidc"]);
    expect(schemes.oauth2).toEqual({
      type: "oauth2", flows: ["authorizationCode", "clientCredentials"], scopes: { read: "Read things", write: "Write things" },
      clientId: "portal-client", authorized: false, grantedScopes: [], expiresAt: null,
    });
    expect(schemes.oidc).toMatchObject({ type: "openIdConnect", flows: ["authorizationCode", "clientCredentials"], clientId: "portal-client", authorized: false });
    expect(schemes.oidc.scopes).toHaveProperty("openid");
  });

  it("answers 404 for an API the reader may not read, as /send does", async () => {
    const res = await call(new Jar(), `${base()}/state?api=secret&version=1.0.0`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("oauth2");
  });
});

describe("authorization code + PKCE", () => {
  it("runs end to end: PKCE S256 and state sent, code exchanged by the Worker, token kept in an HttpOnly cookie, protected call works", async () => {
    const jar = new Jar();
    const start = await call(jar, `${base()}/start?${startQuery()}`);
    expect(start.status).toBe(302);
    const auth = new URL(start.headers.get("location")!);
    expect(auth.origin + auth.pathname).toBe(`${issuer()}/authorize`);
    const q = auth.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe("portal-client");
    expect(q.get("redirect_uri")).toBe(`${LOCAL_ORIGIN}/p/${PORTAL}/playground/oauth/callback`);
    expect(q.get("scope")).toBe("read");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.has("nonce")).toBe(false);
    expect(jar.attributes.get("portico_oauth_flow")).toMatch(/HttpOnly/);
    expect(jar.attributes.get("portico_oauth_flow")).toMatch(/Path=\/p\/pg-oauth\/playground\/oauth\//);

    const back = await call(jar, await authorize(start.headers.get("location")!));
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(RETURN);
    expect(jar.cookies.has("portico_oauth_flow")).toBe(false); // a state is used once
    const [name] = jar.tokenCookies();
    expect(jar.attributes.get(name)).toMatch(/HttpOnly/);
    expect(jar.attributes.get(name)).toMatch(/SameSite=Lax/);
    expect(jar.attributes.get(name)).toMatch(/Path=\/p\/pg-oauth\/playground\//);
    // Encrypted (JWE dir + A256GCM), so the token is not readable from the cookie itself either.
    expect(JSON.parse(atob(jar.cookies.get(name)!.split(".")[0].replace(/-/g, "+").replace(/_/g, "/")))).toEqual({ alg: "dir", enc: "A256GCM" });
    const log = await tokenLog();
    expect(log).toEqual([expect.objectContaining({ grantType: "authorization_code", codeVerifier: true, clientId: "portal-client", basic: false })]);

    const state = (await (await call(jar, `${base()}/state?api=demo&version=1.0.0`)).json()) as { schemes: Record<string, any> };
    expect(state.schemes.oauth2).toMatchObject({ authorized: true, grantedScopes: ["read"] });
    expect(Date.parse(state.schemes.oauth2.expiresAt)).toBeGreaterThan(Date.now());

    const ok = await send(jar, "getProtected", "/protected", "oauth2");
    expect(ok.status).toBe(200);
    const proxied = (await ok.json()) as { status: number; body: string };
    expect(proxied.status).toBe(200);
    expect(JSON.parse(proxied.body)).toEqual({ sub: "johndoe", scope: "read" });
    // Without `auth` the reader's own (bad) header goes as written and the resource refuses it.
    const without = (await (await send(jar, "getProtected", "/protected")).json()) as { status: number };
    expect(without.status).toBe(401);
  });

  it("refuses a callback whose state does not match, without calling the token endpoint, and keeps the real sign-in", async () => {
    const jar = new Jar();
    const start = await call(jar, `${base()}/start?${startQuery()}`);
    const callback = await authorize(start.headers.get("location")!);
    const forged = callback.replace(/state=[^&]+/, "state=forged");
    const refused = await call(jar, forged);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`${RETURN}#playground-error=state-mismatch`);
    expect(jar.tokenCookies()).toEqual([]);
    expect(await tokenLog()).toEqual([]);
    // The genuine callback still completes.
    const real = await call(jar, callback);
    expect(real.headers.get("location")).toBe(RETURN);
    expect(jar.tokenCookies()).toHaveLength(1);
  });

  it("sends the reader back with the server's error (access_denied), and shows a page when no sign-in is in progress", async () => {
    const jar = new Jar();
    const mine = new URL((await call(jar, `${base()}/start?${startQuery()}`)).headers.get("location")!).searchParams.get("state")!;
    const denied = await call(jar, `${base()}/callback?error=access_denied&state=${mine}`);
    expect(denied.headers.get("location")).toBe(`${RETURN}#playground-error=access_denied`);
    const page = await call(new Jar(), `${base()}/callback?code=x&state=y`);
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toContain(`href="/p/${PORTAL}/"`);
  });

  it("refuses a return that leaves the portal (no open redirect)", async () => {
    for (const target of ["https://evil.example/", "//evil.example/x", "/p/other/", `/p/${PORTAL}/../other/`, "javascript:alert(1)", `\\\\evil.example`]) {
      const res = await call(new Jar(), `${base()}/start?${startQuery({ return: target })}`);
      expect(res.status, target).toBe(400);
      expect(((await res.json()) as any).error.code, target).toBe("invalid-return");
    }
  });

  it("refuses other sites' pages, and a client secret in a URL", async () => {
    for (const path of [`${base()}/start?${startQuery()}`, `${base()}/state?api=demo&version=1.0.0`]) {
      const cross = await call(new Jar(), path, { headers: { "sec-fetch-site": "cross-site" } });
      expect(cross.status, path).toBe(403);
    }
    const token = await call(new Jar(), `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: [] }, headers: { origin: "https://evil.example" } });
    expect(token.status).toBe(403);
    const secret = await call(new Jar(), `${base()}/start?${startQuery({ clientSecret: "s3cret" })}`);
    expect(secret.status).toBe(400);
    expect(await secret.text()).not.toContain("s3cret");
  });

  it("takes a reader's confidential client by POST, authenticating with HTTP Basic at the token endpoint", async () => {
    const jar = new Jar();
    const start = await call(jar, `${base()}/start`, { form: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: "read write", clientId: "reader-app", clientSecret: "reader-secret", return: RETURN } });
    expect(start.status).toBe(303);
    expect(new URL(start.headers.get("location")!).searchParams.get("client_id")).toBe("reader-app");
    expect(new URL(start.headers.get("location")!).toString()).not.toContain("reader-secret");
    await call(jar, await authorize(start.headers.get("location")!));
    expect(await tokenLog()).toEqual([expect.objectContaining({ grantType: "authorization_code", basic: true, clientSecretInBody: false })]);
  });

  it("answers a browser's form post with a page that moves on (form-action 'self' blocks a 303 elsewhere), a script with JSON", async () => {
    const form = { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: "read", return: RETURN };
    const page = await call(new Jar(), `${base()}/start`, { form, headers: { "sec-fetch-mode": "navigate" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const refresh = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(html)?.[1].replace(/&amp;/g, "&");
    expect(refresh).toMatch(new RegExp(`^${issuer()}/authorize\\?response_type=code&`));
    expect(html).toContain(`<a href="${refresh!.replace(/&/g, "&amp;")}">`);
    const json = await call(new Jar(), `${base()}/start`, { form, headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(((await json.json()) as { location: string }).location).toMatch(new RegExp(`^${issuer()}/authorize\\?`));
  });

  it("refreshes an expired token with its refresh token before sending (RFC 6749 §6) and keeps the new one", async () => {
    const jar = new Jar();
    await fetch(`${resource()}/__oauth/next?expiresIn=1`, { method: "POST" });
    await signIn(jar);
    const [name] = jar.tokenCookies();
    const before = jar.cookies.get(name);
    const res = await send(jar, "getProtected", "/protected", "oauth2");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: number }).status).toBe(200);
    expect((await tokenLog()).map((t) => t.grantType)).toEqual(["authorization_code", "refresh_token"]);
    expect((await tokenLog())[1].scope).toBe("read");
    expect(jar.cookies.get(name)).not.toBe(before);
    // The refreshed token lasts: the next call needs no refresh.
    await send(jar, "getProtected", "/protected", "oauth2");
    expect(await tokenLog()).toHaveLength(2);
  });
});

describe("client credentials", () => {
  it("exchanges the portal's client at the token endpoint from the Worker; the token then serves /send", async () => {
    const jar = new Jar();
    const res = await call(jar, `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toEqual({ scheme: "oauth2", grantedScopes: ["read"], expiresAt: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/eyJ/); // no token in the answer
    expect(await tokenLog()).toEqual([expect.objectContaining({ grantType: "client_credentials", clientId: "portal-client", basic: false })]);
    const sent = (await (await send(jar, "getProtected", "/protected", "oauth2")).json()) as { status: number };
    expect(sent.status).toBe(200);
  });

  it("says no-token when a token expired without a refresh token, and when there is none", async () => {
    const jar = new Jar();
    await fetch(`${resource()}/__oauth/next?expiresIn=1`, { method: "POST" });
    expect((await call(jar, `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] } })).status).toBe(200);
    const expired = await send(jar, "getProtected", "/protected", "oauth2");
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as any).error.code).toBe("no-token");
    const none = await send(new Jar(), "getProtected", "/protected", "oauth2");
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.code).toBe("no-token");
  });

  it("reports the server's refusal as 400 token-refused, keeping the reader's secret out of it", async () => {
    await fetch(`${resource()}/__oauth/next?error=invalid_client`, { method: "POST" });
    const res = await call(new Jar(), `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", clientId: "x", clientSecret: "very-secret", scopes: ["read"] } });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(JSON.parse(text).error.code).toBe("token-refused");
    expect(text).toContain("invalid_client");
    expect(text).not.toContain("very-secret");
  });

  it("refuses a token too large for the reader's cookie (no splitting), keeping nothing", async () => {
    for (const chars of [2900, 3500]) {
      await fetch(`${resource()}/__oauth/next?accessTokenChars=${chars}`, { method: "POST" });
      const jar = new Jar();
      const res = await call(jar, `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] } });
      expect(res.status, String(chars)).toBeGreaterThanOrEqual(400);
      expect(((await res.json()) as any).error.code).toBe("token-too-large");
      expect(jar.tokenCookies()).toEqual([]);
    }
  });

  it("refuses `auth` with a scheme that is not OAuth, and forget drops the token", async () => {
    const jar = new Jar();
    await call(jar, `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] } });
    expect((await send(jar, "getKeyed", "/keyed", "key")).status).toBe(400);
    expect((await send(jar, "getKeyed", "/keyed", "oauth2")).status).toBe(400); // not a scheme this operation uses
    const forget = await call(jar, `${base()}/forget`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2" } });
    expect(forget.status).toBe(204);
    expect(jar.tokenCookies()).toEqual([]);
    const state = (await (await call(jar, `${base()}/state?api=demo&version=1.0.0`)).json()) as any;
    expect(state.schemes.oauth2.authorized).toBe(false);
  });
});

describe("token cookies", () => {
  it("keeps at most 6, dropping the oldest, and sign-out deletes them all", async () => {
    const jar = new Jar();
    // Cookies of other APIs' schemes as the reader would hold them: sealed by the same code for this portal.
    const names: string[] = [];
    for (let i = 0; i < 7; i++) {
      await call(jar, `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] } });
      const [name] = jar.tokenCookies().filter((n) => !names.includes(n));
      // Rename it as if it were another scheme's token (the name is a hash of API + scheme); it still opens for its age.
      const value = jar.cookies.get(name)!;
      jar.cookies.delete(name);
      jar.cookies.set(`portico_oauth_${String(i).padStart(16, "0")}`, value);
      names.push(`portico_oauth_${String(i).padStart(16, "0")}`);
    }
    expect(jar.tokenCookies()).toHaveLength(6);
    expect(jar.cookies.has(names[0])).toBe(false); // the oldest went when the 7th came
    const out = await call(jar, `/p/${PORTAL}/auth/signout`, { method: "POST", form: {} });
    expect(out.status).toBe(303);
    expect(jar.tokenCookies()).toEqual([]);
  });
});

describe("OpenID Connect", () => {
  it("discovers the provider, sends a nonce with `openid`, checks the id_token against the JWKS, and the token serves /send", async () => {
    const jar = new Jar();
    const start = await call(jar, `${base()}/start?${startQuery({ scheme: "oidc", scopes: "profile" })}`);
    const q = new URL(start.headers.get("location")!).searchParams;
    expect(q.get("scope")).toBe("openid profile");
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const back = await call(jar, await authorize(start.headers.get("location")!));
    expect(back.headers.get("location")).toBe(RETURN);
    const sent = (await (await send(jar, "getOidc", "/oidc", "oidc")).json()) as { status: number; body: string };
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body).scope).toBe("openid profile");
  });

  it("refuses an id_token whose nonce is not the one sent", async () => {
    const jar = new Jar();
    const back = await signIn(jar, { scheme: "oidc", scopes: "" }, (url) => url.searchParams.set("nonce", "someone-elses-nonce"));
    expect(back.headers.get("location")).toBe(`${RETURN}#playground-error=invalid-id-token`);
    expect(jar.tokenCookies()).toEqual([]);
  });
});

describe("the Worker's calls to authorization servers follow the proxy's address rules", () => {
  it("refuses a token endpoint or discovery document on a private address unless the local environment allows it", async () => {
    const strict = `/p/${PRIVATE_OFF}/playground/oauth`;
    const token = await call(new Jar(), `${strict}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] } });
    expect(token.status).toBe(403);
    expect(((await token.json()) as any).error.code).toBe("blocked-host");
    const oidc = await call(new Jar(), `${strict}/start?${startQuery({ scheme: "oidc", return: `/p/${PRIVATE_OFF}/` })}`);
    expect(oidc.status).toBe(403);
    // allowPrivateHosts is set, but the environment is production: refused too.
    const prod = await call(new Jar(), `${base()}/token`, { json: { api: "demo", version: "1.0.0", scheme: "oauth2", scopes: ["read"] }, env: { PORTICO_ENVIRONMENT: "production" } });
    expect(prod.status).toBe(403);
    expect(await tokenLog()).toEqual([]);
  });
});

describe("oauth.ts units", () => {
  const io = (answer: unknown, status = 200): OAuthIO => ({
    check: async (url) => new URL(url),
    fetcher: async () => new Response(JSON.stringify(answer), { status, headers: { "content-type": "application/json" } }),
  });

  it("derives the PKCE S256 challenge of RFC 7636 Appendix B", async () => {
    expect(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(randomToken());
  });

  it("parses scopes as RFC 6749 scope-tokens", () => {
    expect(parseScopes("read  write read")).toEqual(["read", "write"]);
    expect(parseScopes(["a:b"])).toEqual(["a:b"]);
    for (const bad of [['a"b'], ["a\\b"], [1], "x\u00e9", { a: 1 }]) expect(() => parseScopes(bad), JSON.stringify(bad)).toThrow(/scope/);
  });

  it("refuses a discovery document whose issuer is not the one it was fetched under (Discovery §4.3)", async () => {
    const url = "https://id.unit.test/tenant/.well-known/openid-configuration";
    await expect(discover(url, io({ issuer: "https://evil.unit.test/tenant" }))).rejects.toMatchObject({ code: "authorization-server-error" });
    const ok = await discover(url, io({ issuer: "https://id.unit.test/tenant", token_endpoint: "https://id.unit.test/t", token_endpoint_auth_methods_supported: ["client_secret_post"] }));
    expect(ok).toMatchObject({ issuer: "https://id.unit.test/tenant", tokenEndpoint: "https://id.unit.test/t", grantTypes: ["authorization_code", "implicit"] });
  });

  it("keeps Bearer tokens only, takes the requested scopes when the answer names none, and never follows a redirect", async () => {
    const client = { clientId: "c" };
    await expect(requestToken("https://as.unit.test/t", { grant_type: "client_credentials" }, client, "basic", ["r"], io({ access_token: "x", token_type: "DPoP" })))
      .rejects.toMatchObject({ code: "authorization-server-error" });
    const t = await requestToken("https://as.unit.test/t", { grant_type: "client_credentials" }, client, "basic", ["r"], io({ access_token: "x", token_type: "bearer", expires_in: 60 }));
    expect(t).toMatchObject({ accessToken: "x", tokenType: "Bearer", scopes: ["r"] });
    expect(t.expiresAt! - Date.now()).toBeGreaterThan(50_000);
    const redirecting: OAuthIO = { check: async (url) => new URL(url), fetcher: async () => new Response(null, { status: 307, headers: { location: "https://elsewhere.unit.test/" } }) };
    await expect(requestToken("https://as.unit.test/t", { grant_type: "client_credentials" }, client, "basic", [], redirecting)).rejects.toMatchObject({ code: "authorization-server-error" });
  });
});
