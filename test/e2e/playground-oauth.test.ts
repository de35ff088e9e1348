/**
 * @module The playground's OAuth 2.0 authorization code + PKCE flow in Chromium against `wrangler dev` and the REAL
 * oauth2-mock-server (test/harness/oauth-servers.ts): from an operation page, the reader's browser goes to
 * `/playground/oauth/start`, on to the authorization server (which approves at once), back through `/callback` to
 * the operation page; the token never reaches page scripts (HttpOnly), and a protected call through
 * `/playground/send` with `auth` succeeds. Driven by navigation as the Try-it panel does it (this test does not
 * depend on the panel's markup).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs and the benchmark
import { uploadContent, zipFiles } from "../../scripts/lib/content-bundle.mjs";
import { startOAuthServers, type OAuthServers } from "../harness/oauth-servers";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const PORTAL = "oauth-e2e";
let servers: OAuthServers;
let browser: Browser;

beforeAll(async () => {
  servers = await startOAuthServers();
  const token = await createPortal(PORTAL);
  await publish(token, JSON.stringify({
    openapi: "3.0.3", info: { title: "Guarded", version: "1.0.0" }, servers: [{ url: servers.resourceOrigin }],
    paths: { "/things": { get: { operationId: "listThings", security: [{ oauth2: ["read"] }], responses: { 200: { description: "ok" } } } } },
    components: { securitySchemes: { oauth2: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.example.invalid/authorize", tokenUrl: "https://auth.example.invalid/token", scopes: { read: "Read" } } } } } },
  }), { api: "guarded" });
  const yaml = `name: OAuth e2e\nplayground:\n  allowPrivateHosts: true\n  oauth:\n    oauth2: { clientId: e2e-client, authorizationUrl: "${servers.issuer}/authorize", tokenUrl: "${servers.issuer}/token" }\n`;
  const res = await uploadContent(baseUrl(), token, zipFiles({ "portico.yaml": new TextEncoder().encode(yaml), "guides/intro.md": new TextEncoder().encode("---\ntitle: Intro\n---\nHello.\n") }));
  if (res.status !== 201) throw new Error(`content: ${res.status} ${JSON.stringify(res.json)}`);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await servers?.stop();
});

it("authorization code + PKCE from an operation page: back on the page, token HttpOnly, protected call works", async () => {
  const page = await (await browser.newContext()).newPage();
  const errors = collectErrors(page);
  const opPath = `/p/${PORTAL}/reference/guarded/1.0.0/listthings`;
  await page.goto(`${baseUrl()}${opPath}`, { waitUntil: "networkidle" });
  const start = `/p/${PORTAL}/playground/oauth/start?${new URLSearchParams({ api: "guarded", version: "1.0.0", scheme: "oauth2", scopes: "read", return: opPath })}`;
  // As the panel's Authorize button does: a same-origin navigation to start.
  const callback = page.waitForResponse((r) => r.url().includes("/playground/oauth/callback"), { timeout: 30_000 });
  // The redirect chain (start → authorization server → callback → the page) is one navigation of the main frame.
  const landed = page.waitForNavigation({ waitUntil: "networkidle", timeout: 30_000 });
  await page.evaluate((url) => location.assign(url), start);
  expect((await callback).status()).toBe(303);
  await landed;
  expect(page.url()).toBe(`${baseUrl()}${opPath}`);

  expect(await page.evaluate(() => document.cookie)).not.toContain("portico_oauth");
  const cookies = await page.context().cookies();
  const tokenCookie = cookies.find((c) => c.name.startsWith("portico_oauth_") && c.name !== "portico_oauth_flow");
  expect(tokenCookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: `/p/${PORTAL}/playground/` });

  const state = await page.evaluate(async (p) => (await fetch(`/p/${p}/playground/oauth/state?api=guarded&version=1.0.0`)).json() as Promise<any>, PORTAL);
  expect(state.schemes.oauth2).toMatchObject({ authorized: true, grantedScopes: ["read"], clientId: "e2e-client" });

  const sent = await page.evaluate(async ({ p, url }) => {
    const res = await fetch(`/p/${p}/playground/send`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ api: "guarded", version: "1.0.0", operationId: "listThings", method: "GET", url, headers: {}, auth: { scheme: "oauth2" } }),
    });
    return { status: res.status, json: (await res.json()) as any };
  }, { p: PORTAL, url: `${servers.resourceOrigin}/things` });
  expect(sent.status).toBe(200);
  expect(sent.json.status).toBe(200);
  expect(JSON.parse(sent.json.body)).toEqual({ sub: "johndoe", scope: "read" });
  expect(errors).toEqual([]);
});

it("a reader's own client with a secret, posted as a form from the page, gets through the page's form-action CSP", async () => {
  const page = await (await browser.newContext()).newPage();
  const errors = collectErrors(page);
  const opPath = `/p/${PORTAL}/reference/guarded/1.0.0/listthings`;
  await page.goto(`${baseUrl()}${opPath}`, { waitUntil: "networkidle" });
  const callback = page.waitForResponse((r) => r.url().includes("/playground/oauth/callback"), { timeout: 30_000 });
  // As the panel would post it (the values are fixed test strings, safe in markup).
  const fields = { api: "guarded", version: "1.0.0", scheme: "oauth2", scopes: "read", clientId: "reader-app", clientSecret: "reader-secret", return: opPath };
  const markup = `<form id="oauth-start" method="post" action="/p/${PORTAL}/playground/oauth/start">${Object.entries(fields).map(([n, v]) => `<input name="${n}" value="${v}">`).join("")}</form>`;
  await page.evaluate((html) => {
    const doc = (globalThis as any).document;
    doc.body.insertAdjacentHTML("beforeend", html);
    doc.getElementById("oauth-start").submit();
  }, markup);
  expect((await callback).status()).toBe(303);
  await page.waitForURL(`${baseUrl()}${opPath}`, { waitUntil: "networkidle" });
  const state = await page.evaluate(async (p) => (await fetch(`/p/${p}/playground/oauth/state?api=guarded&version=1.0.0`)).json() as Promise<any>, PORTAL);
  expect(state.schemes.oauth2).toMatchObject({ authorized: true, grantedScopes: ["read"] });
  expect(errors).toEqual([]);
});
