/**
 * @module Browser test of the changelog review page (issue 11) in Debian Chromium against `wrangler dev`: a
 * signed-in writer sees the draft beside its diff, edits and approves it; a hostile body stays text.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const PORTAL = "changelog-e2e";
const V1 = "openapi: 3.0.3\ninfo: {title: Pets, version: 1.0.0}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      parameters:\n        - {name: limit, in: query, schema: {type: integer}}\n      responses: {'200': {description: ok}}\n";
const V2 = V1.replace("{name: limit, in: query, schema: {type: integer}}", "{name: limit, in: query, required: true, schema: {type: integer}}");

let browser: Browser;
let token: string;

beforeAll(async () => {
  token = await createPortal(PORTAL);
  await publish(token, V1, { api: "pets", version: "1.0.0" });
  await publish(token, V2, { api: "pets", version: "2.0.0" });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("changelog review page", () => {
  it("shows the draft beside its diff, saves an edit and approves it; script-like text stays text", async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/admin/changelog`);
    await page.fill('input[name="token"]', token);
    await page.click('#signin button[type="submit"]');
    await page.waitForSelector("section.draft");
    expect(await page.locator("section.draft h3").innerText()).toBe("1.0.0 → 2.0.0 · Breaking · draft");
    await page.click("section.draft details summary");
    await page.waitForSelector("section.draft details li");
    expect(await page.locator("section.draft details").innerText()).toContain("request-parameter-became-required");

    await page.fill("section.draft input", "Pets 2 <img src=x onerror=window.__xss=1>");
    await page.click('section.draft button:has-text("Save")');
    await page.waitForFunction(() => (document.querySelector("section.draft input") as HTMLInputElement | null)?.value.startsWith("Pets 2"));
    await page.click('section.draft button:has-text("Approve")');
    await page.waitForFunction(() => document.querySelector("section.draft h3")?.textContent?.endsWith("approved"));
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await page.locator("section.draft img").count()).toBe(0);

    const res = await fetch(`${baseUrl()}/v1/apis/pets/changelog/drafts`, { headers: { authorization: `Bearer ${token}` } });
    const { drafts } = (await res.json()) as any;
    expect(drafts[0]).toMatchObject({ status: "approved", title: "Pets 2 <img src=x onerror=window.__xss=1>" });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
