/**
 * @module "API key once" in Chromium against `wrangler dev`: a reader enters their key in the top bar's Authorize
 * control, lands back on the operation, and the code samples (cURL, then another language) carry it; Clear
 * forgets it. No console errors.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const PORTAL = "api-key-e2e";
const KEY = "sk_e2e_4f9c2b7d";
const DEFINITION = `openapi: 3.1.0
info: { title: Keyed, version: "1.0" }
servers: [{ url: "https://api.keyed.test" }]
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    header: { type: apiKey, in: header, name: X-Api-Key }
paths:
  /orders: { get: { operationId: listOrders, security: [{ bearer: [] }], responses: { "200": { description: ok } } } }
  /stock: { get: { operationId: getStock, security: [{ header: [] }], responses: { "200": { description: ok } } } }
`;

let browser: Browser;

beforeAll(async () => {
  await publish(await createPortal(PORTAL), DEFINITION, { api: "keyed" });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

it("enter the key once: samples on every operation page show it, in every language; Clear removes it", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const op = (slug: string) => `${baseUrl()}/p/${PORTAL}/reference/keyed/1.0/${slug}`;
  await page.goto(op("listorders"), { waitUntil: "networkidle" });
  const sample = page.locator(".cs pre").first();
  expect(await sample.textContent()).toContain("Bearer YOUR_TOKEN");

  await page.locator(".authz > summary").click();
  await page.locator('.authz input[name="key"]').fill(KEY);
  await Promise.all([page.waitForURL(op("listorders")), page.locator(".authz button[type=submit]").click()]);
  await page.waitForLoadState("networkidle");
  expect(await page.locator(".authz > summary").textContent()).toBe("Authorized");
  expect(await page.locator(".cs pre").first().textContent()).toContain(`Bearer ${KEY}`);
  await page.getByRole("tab", { name: "Python" }).first().click();
  await expect.poll(async () => page.locator(".cs pre").first().textContent()).toContain(`Bearer ${KEY}`);
  expect(await page.locator(".cs pre").first().textContent()).toContain("requests");

  await page.goto(op("getstock"), { waitUntil: "networkidle" });
  await expect.poll(async () => page.locator(".cs pre").first().textContent()).toContain(KEY);
  expect(await page.locator(".cs pre").first().textContent()).toContain("X-Api-Key");

  await page.locator(".authz > summary").click();
  await Promise.all([page.waitForURL(op("getstock")), page.getByRole("button", { name: "Clear API key" }).click()]);
  await page.waitForLoadState("networkidle");
  expect(await page.locator(".authz > summary").textContent()).toBe("Authorize");
  await expect.poll(async () => page.locator(".cs pre").first().textContent()).toContain("YOUR_API_KEY");
  expect(await page.content()).not.toContain(KEY);
  expect((await context.cookies()).some((c) => c.name === "portico_api_key")).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});
