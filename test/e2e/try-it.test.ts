/**
 * @module The Try-it panel in Chromium against `wrangler dev` and a real, validating mock of the demo API (`prism
 * mock`, started by global-setup.ts): the demo portal lists the mock as its "Local mock" server (as `npm start`
 * does) and allows that private host through its portico.yaml. A GET with path and query parameters shows status,
 * headers, body and timing; the prefilled JSON body of a POST gets a 2xx from the validating mock; an API key
 * entered once is used by the panel on another page; a constraint violation blocks sending.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { readFolder, uploadContent, zipFiles } from "../../scripts/lib/content-bundle.mjs";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { withLocalMock } from "../../scripts/lib/local-mock.mjs";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const PORTAL = "try-it-e2e";
const API = "parcel-logistics-api";
const KEY = "pl_test_e2e_7c1d";
const op = (slug: string) => `${baseUrl()}/p/${PORTAL}/reference/${API}/2.4.0/${slug}`;

let browser: Browser;

beforeAll(async () => {
  const token = await createPortal(PORTAL);
  const port = Number(new URL(inject("mockUrl")).port);
  await publish(token, withLocalMock(readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8"), port));
  const res = await uploadContent(baseUrl(), token, zipFiles(readFolder(new URL("../../demo/content", import.meta.url).pathname)));
  if (res.status !== 201) throw new Error(`content upload: ${res.status} ${JSON.stringify(res.json)}`);
  // prism compiles its validators on the first request: pay that here, not in the first test's wait.
  await fetch(`${inject("mockUrl")}/parcels/pcl_Q81mZr/tracking-events`, { headers: { "X-API-Key": "warm-up" } });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens the operation page and its Try-it panel; resolves once the form is there. */
async function openPanel(page: Page, slug: string): Promise<void> {
  await page.goto(op(slug), { waitUntil: "networkidle" });
  await page.locator(".try-open").click();
  await page.locator(".try-form").waitFor();
}

/**
 * Console errors of `page`, less the one a portal without the OAuth routes causes: the panel asks
 * `/playground/oauth/state` for the demo's oauth2 scheme and, answered 404, says OAuth is not available here.
 * Any other failed load still counts.
 */
function pageErrors(page: Page): () => string[] {
  const errors = collectErrors(page);
  const missing: string[] = [];
  page.on("response", (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); });
  return () => {
    const onlyOAuth = missing.length > 0 && missing.every((p) => p.endsWith("/playground/oauth/state"));
    return errors.filter((e) => !(onlyOAuth && /status of 404/.test(e)));
  };
}

/** Counts the page's calls to the proxy. */
function proxyCalls(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on("request", (r) => { if (r.url().endsWith("/playground/send")) seen.count++; });
  return seen;
}

it("GET with path and query parameters through the proxy: status, headers, body and timing; samples show the request sent", { timeout: 150_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = pageErrors(page);
  await openPanel(page, "listtrackingevents");
  // The local mock is preselected on a local portal.
  expect(await page.locator('.try select[aria-label="Server"] option:checked').textContent()).toContain(inject("mockUrl"));
  expect(await page.locator('.try input[name="path:parcelId"]').inputValue()).toBe("pcl_Q81mZr");
  await page.locator('.try select[name="query:eventType"]').selectOption("delivered");
  await page.locator('.try select[aria-label="Security requirement"]').selectOption({ label: "apiKey" });
  await page.locator('.try [data-scheme="apiKey"] input').fill("pl_test_typed");
  await page.locator(".try-send").click();
  const status = page.locator(".try-status");
  await status.waitFor({ timeout: 90_000 }); // a busy machine's first proxied call (cold isolate) can be slow
  expect(await status.textContent()).toMatch(/^200 .*OK: the request succeeded/);
  expect(await page.locator(".try-headers dt", { hasText: "content-type" }).count()).toBe(1);
  const body = JSON.parse((await page.locator(".try-out").textContent())!);
  expect(Array.isArray(body)).toBe(true);
  expect(await page.locator(".try-out").textContent()).toContain('\n  {'); // pretty-printed
  expect(await page.locator(".try-timing").textContent()).toMatch(/^Total \d+ ms \(portal \d+ ms, of which upstream \d+ ms\) · [\d.]+ (B|KB)$/);
  // The code samples now print the exact request sent, query and key included.
  const sample = (await page.locator(".cs pre").first().textContent())!;
  expect(sample).toContain(`${inject("mockUrl")}/parcels/pcl_Q81mZr/tracking-events?eventType=delivered`);
  expect(sample).toContain("X-API-Key: pl_test_typed");
  expect(await page.locator(".cs-sent").count()).toBe(1);
  // History: this call, without the key.
  const history = (await page.locator(".try-history").textContent())!;
  expect(history).toContain("/parcels/pcl_Q81mZr/tracking-events?eventType=delivered");
  const stored = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
  expect(stored).toContain("eventType=delivered");
  expect(stored).not.toContain("pl_test_typed");
  expect(errors()).toEqual([]);
  await page.close();
});

it("a newcomer's first Send on the local demo answers 2xx: a scheme the mock accepts is chosen and filled, not OAuth", async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = pageErrors(page);
  await openPanel(page, "listshipments"); // oauth2 | bearerAuth | apiKey, and no API key entered
  expect(await page.locator('.try select[aria-label="Security requirement"] option:checked').textContent()).toBe("apiKey");
  expect(await page.locator('.try [data-scheme="apiKey"]').textContent()).toContain("Any value works on the local mock.");
  await page.locator(".try-send").click();
  await page.locator(".try-status").waitFor({ timeout: 90_000 });
  expect(await page.locator(".try-status").textContent()).toMatch(/^2\d\d /);
  expect(errors()).toEqual([]);
  await page.close();
});

it("POSTs the prefilled JSON body and gets a 2xx from the validating mock", async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = pageErrors(page);
  await openPanel(page, "createshipment");
  const text = await page.locator(".try-body").inputValue();
  expect(JSON.parse(text)).toBeTypeOf("object");
  await page.locator('.try select[aria-label="Security requirement"]').selectOption({ label: "apiKey" });
  await page.locator('.try [data-scheme="apiKey"] input').fill("pl_test_typed");
  await page.locator(".try-send").click();
  await page.locator(".try-status").waitFor();
  expect(await page.locator(".try-status").textContent()).toMatch(/^2\d\d /);
  expect(errors()).toEqual([]);
  await page.close();
});

it("an API key entered once (top bar Authorize) is used by the panel on another page", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors = pageErrors(page);
  await page.goto(op("getshipment"), { waitUntil: "networkidle" });
  await page.locator(".authz > summary").click();
  await page.locator('.authz input[name="key"]').fill(KEY);
  await Promise.all([page.waitForURL(op("getshipment")), page.locator(".authz button[type=submit]").click()]);

  await openPanel(page, "listshipments");
  // The requirement the key satisfies is preselected and filled.
  expect(await page.locator('.try select[aria-label="Security requirement"] option:checked').textContent()).toBe("apiKey");
  expect(await page.locator('.try [data-scheme="apiKey"] input').inputValue()).toBe(KEY);
  let sent: any;
  page.on("request", (r) => { if (r.url().endsWith("/playground/send")) sent = r.postDataJSON(); });
  await page.locator(".try-send").click();
  await page.locator(".try-status").waitFor();
  expect(await page.locator(".try-status").textContent()).toMatch(/^200 /);
  expect(sent.headers["X-API-Key"]).toBe(KEY);
  expect(errors()).toEqual([]);
  await context.close();
});

it("a value that breaks its schema blocks the send, with a message naming it", async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const calls = proxyCalls(page);
  await openPanel(page, "listshipments");
  await page.locator('.try input[name="query:limit"]').fill("0");
  await page.locator('.try input[name="query:status"]').fill("booked,lost");
  await page.locator(".try-send").click();
  const blocked = page.locator(".try-blocked");
  await blocked.waitFor();
  expect(await blocked.textContent()).toContain("limit must be at least 1");
  expect(await blocked.textContent()).toContain('status item "lost" must be one of');
  expect(await page.locator('.try input[name="query:limit"]').getAttribute("aria-invalid")).toBe("true");
  expect(calls.count).toBe(0);
  // Fixed, it goes out (and the mock, which validates too, answers).
  await page.locator('.try input[name="query:limit"]').fill("5");
  await page.locator('.try input[name="query:status"]').fill("booked");
  await page.locator(".try-send").click();
  await page.locator(".try-res").waitFor();
  expect(calls.count).toBe(1);
  await page.close();
});

it("on a phone the panel takes the full width", async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
  await openPanel(page, "getshipment");
  const box = (await page.locator(".try").boundingBox())!;
  expect(box.width).toBeGreaterThan(390 * 0.85);
  await page.close();
});
