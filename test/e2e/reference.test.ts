/**
 * @module Browser tests of the API reference (issue 3) in Debian Chromium against `wrangler dev`: open a
 * reference, switch version and API on the same operation, expand a nested schema, switch a oneOf variant,
 * expand a repeated schema in place, copy a code sample and change its language and server, toggle dark mode,
 * follow Redoc/Swagger UI/Scalar bookmarks, read a page with JavaScript off; no console errors anywhere.
 */
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const DEMO = readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8");
const PETSTORE = readFileSync(new URL("../fixtures/petstore-v3.yaml", import.meta.url), "utf8");
const PORTAL = "reference-e2e";

let browser: Browser;
let context: BrowserContext;
const ref = (path: string) => `${baseUrl()}/p/${PORTAL}/reference/${path}`;

beforeAll(async () => {
  const token = await createPortal(PORTAL);
  await publish(token, DEMO, { api: "parcels", version: "2.4" });
  await publish(token, PETSTORE, { api: "pets", version: "1.0" });
  await publish(token, PETSTORE.replace("List all pets", "List every pet"), { api: "pets", version: "2.0" });
  await publish(token, DEMO, { api: "parcels-single", version: "1" });
  await publish(token, DEMO.replace("Create a shipment", "Create one shipment"), { api: "parcels-single", version: "2" });
  const res = await fetch(`${baseUrl()}/v1/apis/parcels-single`, {
    method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }),
  });
  if (!res.ok) throw new Error(`layout: ${res.status}`);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url, { waitUntil: "networkidle" });
  return { page, errors };
}

describe("reading a reference", () => {
  it("opens the index and an operation from it, without console errors", async () => {
    const { page, errors } = await open(ref("parcels/2.4/"));
    expect(await page.locator("h1").textContent()).toBe("Parcel Logistics API");
    await page.locator('main a.opl[href$="/createshipment"]').first().click();
    await page.waitForURL(/\/createshipment$/);
    expect(await page.locator("h1").textContent()).toBe("Create a shipment");
    expect(await page.locator(".cs-code code").textContent()).toContain("curl https://eu.api.parcel-logistics.example/v2/shipments");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("switches version and stays on the same operation, then switches API", async () => {
    const { page, errors } = await open(ref("pets/1.0/listpets"));
    await page.locator("summary", { hasText: "Version:" }).click();
    await page.locator(".sw a", { hasText: "2.0" }).click();
    await page.waitForURL(/\/pets\/2\.0\/listpets$/);
    expect(await page.locator("h1").textContent()).toBe("List every pet");
    await page.locator("summary", { hasText: "API:" }).click();
    await page.locator(`.sw a[href="/p/${PORTAL}/reference/parcels/"]`).click();
    await page.waitForURL(/\/reference\/parcels\/$/);
    expect(await page.locator("h1").textContent()).toBe("Parcel Logistics API");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("expands a nested schema", async () => {
    const { page, errors } = await open(ref("parcels/2.4/createshipment"));
    const summary = page.locator("summary", { hasText: "properties of CustomsDeclaration" }).first();
    const inner = summary.locator("xpath=..").locator("ul.pr").first();
    expect(await inner.isVisible()).toBe(false);
    await summary.click();
    expect(await inner.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("switches a oneOf variant", async () => {
    const { page, errors } = await open(ref("parcels/2.4/listtrackingevents"));
    const group = page.locator('.vr[aria-label="One of"]').first();
    const panels = group.locator(":scope > .vp");
    expect(await panels.nth(0).isVisible()).toBe(true);
    expect(await panels.nth(2).isVisible()).toBe(false);
    await group.locator(":scope > label", { hasText: "exception" }).click();
    expect(await panels.nth(0).isVisible()).toBe(false);
    expect(await panels.nth(2).isVisible()).toBe(true);
    expect(await panels.nth(2).textContent()).toContain("retryScheduled");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("expands a schema already shown above in place", async () => {
    const { page, errors } = await open(ref("parcels/2.4/createshipment"));
    // Pin the element: once expanded it no longer matches the selector.
    await page.locator("details:has(> .same)").first().evaluate((d) => d.setAttribute("data-test", "repeat"));
    const placeholder = page.locator('details[data-test="repeat"]');
    await placeholder.locator(":scope > summary").click();
    await expect.poll(() => placeholder.locator(":scope > .same").count()).toBe(0);
    expect(await placeholder.locator("ul.pr").first().isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("copies a code sample, changes its language and its server", async () => {
    const { page, errors } = await open(ref("parcels/2.4/createshipment"));
    const code = page.locator(".cs-code code");
    await page.locator(".cs-code .cp").click();
    await expect.poll(() => page.locator(".cs-code .cp").textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
    // The island reads the body from the cURL code (its props leave it out): every language still sends it.
    const curl = (await code.textContent())!;
    const body = JSON.parse(/--data '([\s\S]*)'$/.exec(curl)![1]!.replaceAll("'\\''", "'")) as Record<string, unknown>;
    const keys = Object.keys(body);
    expect(keys.length).toBeGreaterThan(0);
    await page.locator(".cs-tabs button", { hasText: "Python" }).click();
    await expect.poll(() => code.textContent()).toContain("requests.post(");
    for (const key of keys) expect(await code.textContent()).toContain(`"${key}"`);
    await page.locator(".cs-server select").first().selectOption({ index: 1 });
    await expect.poll(() => code.textContent()).toContain("https://sandbox.parcel-logistics.example/v2/shipments");
    // The language choice sticks across pages.
    const next = await open(ref("parcels/2.4/getshipment"));
    await expect.poll(() => next.page.locator(".cs-code code").textContent()).toContain("requests.get(");
    expect([...errors, ...next.errors]).toEqual([]);
    await next.page.close();
    await page.close();
  });

  it("toggles dark mode and keeps it after a reload", async () => {
    const { page, errors } = await open(ref("parcels/2.4/"));
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await bg();
    await page.locator("button.tt").click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await bg()).not.toBe(light);
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.locator("button.tt").click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("follows bookmarks made with Redoc, Swagger UI and Scalar", async () => {
    const cases: [string, RegExp][] = [
      ["parcels/2.4/#operation/getShipment", /\/parcels\/2\.4\/getshipment$/],
      ["parcels/2.4/#/Shipments/cancelShipment", /\/parcels\/2\.4\/cancelshipment$/],
      ["parcels/2.4/#tag/Rates/POST/rates/quotes", /\/parcels\/2\.4\/quoterates$/],
      ["parcels/2.4/#tag/Tracking", /\/parcels\/2\.4\/#tag-tracking$/],
    ];
    for (const [path, expected] of cases) {
      const { page, errors } = await open(ref(path));
      await page.waitForURL(expected);
      expect(errors, path).toEqual([]);
      await page.close();
    }
  });
});

describe("single-page layout", () => {
  it("maps a Redoc bookmark to the operation's section and keeps it when switching version", async () => {
    const { page, errors } = await open(ref("parcels-single/1/#operation/createShipment"));
    await page.waitForURL(/\/parcels-single\/1\/#createshipment$/);
    expect(await page.locator("article#createshipment h3").first().textContent()).toBe("Create a shipment");
    await page.locator("summary", { hasText: "Version:" }).click();
    await page.locator(".sw a", { hasText: "2" }).click();
    await page.waitForURL(/\/parcels-single\/2\/#createshipment$/);
    expect(await page.locator("article#createshipment h3").first().textContent()).toBe("Create one shipment");
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("without JavaScript", () => {
  it("is readable: operation, schema, cURL sample, working version links and radio variants", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await page.goto(ref("parcels/2.4/listtrackingevents"));
    expect(await page.locator("h1").textContent()).toBe("List tracking events");
    expect(await page.locator(".cs-code code").textContent()).toContain("curl ");
    expect(await page.locator(".cs-tabs").isVisible()).toBe(false);
    const group = page.locator('.vr[aria-label="One of"]').first();
    await group.locator(":scope > label").nth(1).click();
    expect(await group.locator(":scope > .vp").nth(1).isVisible()).toBe(true);
    // On a phone the API switcher sits in the sidebar, which opens without script through its checkbox's label.
    await page.locator("label.menu-lbl").click();
    await page.locator("summary", { hasText: "API:" }).click();
    expect(await page.locator(".sw a", { hasText: "Swagger Petstore" }).getAttribute("href")).toBe(`/p/${PORTAL}/reference/pets/`);
    await ctx.close();
  });
});
