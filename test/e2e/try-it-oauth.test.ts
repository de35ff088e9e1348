/**
 * @module The Try-it panel's OAuth controls in Chromium, through the Worker's OAuth routes (contract-oauth.md)
 * against a real authorization server (oauth2-mock-server, which approves every sign-in at once) and the
 * validating prism mock of the demo API (which refuses a call to an oauth2 operation without a bearer token):
 * Authorize (authorization code + PKCE) from the panel, back on the page with the panel reopened and authorized,
 * a protected call sent with `auth`; a reload keeps the token; Forget, then client credentials from the panel.
 * Needs the OAuth routes (`/p/{portal}/playground/oauth/*`): where they answer 404 (a build without them) the
 * test says so and is skipped.
 */
import { readFileSync } from "node:fs";
import { OAuth2Server } from "oauth2-mock-server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { uploadContent, zipFiles } from "../../scripts/lib/content-bundle.mjs";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { freePort } from "../../scripts/lib/dev-server.mjs";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { withLocalMock } from "../../scripts/lib/local-mock.mjs";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const PORTAL = "try-it-oauth-e2e";
const API = "parcel-logistics-api";
const PAGE = () => `${baseUrl()}/p/${PORTAL}/reference/${API}/2.4.0/listshipments`;

let browser: Browser;
let issuer: OAuth2Server;
let routes = false;

beforeAll(async () => {
  issuer = new OAuth2Server();
  await issuer.issuer.keys.generate("RS256");
  await issuer.start(await freePort(), "127.0.0.1");
  const token = await createPortal(PORTAL);
  const port = Number(new URL(inject("mockUrl")).port);
  await publish(token, withLocalMock(readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8"), port));
  const url = issuer.issuer.url!;
  const yaml = `name: Try-it OAuth e2e\nplayground:\n  allowPrivateHosts: true\n  oauth:\n    oauth2: { clientId: e2e-panel, authorizationUrl: "${url}/authorize", tokenUrl: "${url}/token" }\n`;
  const res = await uploadContent(baseUrl(), token, zipFiles({ "portico.yaml": new TextEncoder().encode(yaml), "guides/intro.md": new TextEncoder().encode("---\ntitle: Intro\n---\nHello.\n") }));
  if (res.status !== 201) throw new Error(`content: ${res.status} ${JSON.stringify(res.json)}`);
  routes = (await fetch(`${baseUrl()}/p/${PORTAL}/playground/oauth/state?api=${API}&version=2.4.0`)).status !== 404;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await issuer?.stop();
});

async function open(page: Page): Promise<void> {
  await page.locator(".try-open").click();
  await page.locator(".try-form").waitFor();
}

async function sendAndStatus(page: Page): Promise<string> {
  const before = await page.locator(".try-history li").count();
  await page.locator(".try-send").click();
  await expect.poll(() => page.locator(".try-history li").count(), { timeout: 20_000 }).toBe(before + 1);
  return (await page.locator(".try-res").textContent()) ?? "";
}

it("Authorize (code + PKCE) from the panel, a protected call, a reload keeps it; Forget; client credentials", async (ctx) => {
  if (!routes) {
    console.warn("try-it-oauth: /playground/oauth/state answers 404 in this build (the OAuth routes are not merged): skipped");
    ctx.skip();
  }
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  const errors = collectErrors(page);
  await page.goto(PAGE(), { waitUntil: "networkidle" });
  await open(page);
  // On a local portal the panel starts with a scheme the mock accepts (issue 38); OAuth is chosen here.
  await page.locator('.try select[aria-label="Security requirement"]').selectOption({ label: "oauth2" });
  const oauth = page.locator('.try-oauth[data-scheme="oauth2"]');
  await oauth.waitFor();
  expect(await oauth.textContent()).toContain("not authorized");
  expect(await oauth.locator("label", { hasText: "Client ID" }).locator("input").inputValue()).toBe("e2e-panel");
  expect(await oauth.locator('label:has-text("shipments:read") input').isChecked()).toBe(true);
  // Without a token the Worker refuses to send (no-token), and nothing reaches the mock.
  expect(await sendAndStatus(page)).toContain("no-token");
  // The refusal's "Authorize first" takes the reader to the scheme's sign-in.
  await page.locator(".try-res").getByRole("button", { name: "Authorize first" }).click();
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".try-oauth")?.getAttribute("data-scheme"))).toBe("oauth2");

  await Promise.all([page.waitForURL(PAGE(), { timeout: 30_000 }), oauth.getByRole("button", { name: "Authorize" }).click()]);
  await page.waitForLoadState("networkidle");
  // Back on the page, the panel reopened by itself, authorized.
  await page.locator('.try-oauth[data-scheme="oauth2"] .try-ok').waitFor({ timeout: 20_000 });
  expect(await page.locator(".try-oauth .try-ok").textContent()).toContain("shipments:read");
  expect(await page.evaluate(() => document.cookie)).not.toMatch(/access|token/i);
  expect(await sendAndStatus(page)).toMatch(/^200 /);

  await page.reload({ waitUntil: "networkidle" });
  await open(page);
  await page.locator(".try-oauth .try-ok").waitFor();
  expect(await sendAndStatus(page)).toMatch(/^200 /);

  await page.locator(".try-oauth").getByRole("button", { name: "Forget token" }).click();
  await expect.poll(() => page.locator(".try-oauth").textContent()).toContain("not authorized");
  await page.locator('.try-oauth label:has-text("Client secret") input').fill("e2e-secret");
  await page.locator(".try-oauth").getByRole("button", { name: "Get token (client credentials)" }).click();
  await page.locator(".try-oauth .try-ok").waitFor({ timeout: 20_000 });
  expect(await sendAndStatus(page)).toMatch(/^200 /);

  // A confidential client: the secret typed for the code flow is posted (never put in a URL), then the panel
  // navigates to the authorization URL it gets back and comes back authorized.
  await page.locator(".try-oauth").getByRole("button", { name: "Forget token" }).click();
  await expect.poll(() => page.locator(".try-oauth").textContent()).toContain("not authorized");
  await page.locator('.try-oauth label:has-text("Client secret") input').fill("e2e-confidential");
  const urls: string[] = [];
  const posted: string[] = [];
  page.on("request", (r) => {
    urls.push(r.url());
    if (r.method() === "POST" && r.url().includes("/playground/oauth/start")) posted.push(r.postData() ?? "");
  });
  await Promise.all([page.waitForURL(PAGE(), { timeout: 30_000 }), page.locator(".try-oauth").getByRole("button", { name: "Authorize" }).click()]);
  await page.waitForLoadState("networkidle");
  await page.locator('.try-oauth[data-scheme="oauth2"] .try-ok').waitFor({ timeout: 20_000 });
  expect(urls.some((u) => u.includes("e2e-confidential"))).toBe(false);
  expect(posted.some((body) => new URLSearchParams(body).get("clientSecret") === "e2e-confidential")).toBe(true);
  expect(await sendAndStatus(page)).toMatch(/^200 /);
  // The one failed load is the deliberate call without a token (401 no-token).
  expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});
