/**
 * @module Browser test of the team side (issue 32) in Debian Chromium against `wrangler dev`: a new writer signs up
 * as a user would (magic link from the dev outbox → organisation → portal → token) and publishes a first
 * definition with that token; the dashboard then lists the API, and a form error shows next to its field.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, launchBrowser } from "./browser";

const DEF = "openapi: 3.1.0\ninfo: {title: First API, version: 1.0.0}\npaths:\n  /hello:\n    get:\n      operationId: sayHello\n      responses: {'200': {description: ok}}\n";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("sign-up to first publish", () => {
  it("magic link → organisation → portal → token → upload, then the dashboard shows the API", async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    const email = `new-${Date.now()}@example.com`;
    await page.goto(`${baseUrl()}/app`);
    expect(new URL(page.url()).pathname).toBe("/app/signin");
    await page.fill("#f-email", email);
    await page.click("button[type=submit]");
    await page.click("text=dev outbox");
    await page.click("a[href*='/v1/auth/verify']");
    expect(new URL(page.url()).pathname).toBe("/app");
    await page.fill("#f-name", "First Steps Ltd");
    await page.click("button:has-text('Create organisation')");
    expect(await page.locator("h1").innerText()).toContain("Trial · 14 days left");
    // A wrong address: the message sits next to the field, nothing is made.
    await page.fill("#f-name", "First docs");
    await page.fill("#f-slug", "No Spaces");
    await page.uncheck("input[name=sample]");
    await page.click("button:has-text('Create portal')");
    expect(await page.locator("#f-slug-error").innerText()).toMatch(/slug must be/);
    await page.fill("#f-slug", `first-${Date.now() % 100000}`);
    await page.uncheck("input[name=sample]");
    await page.click("button:has-text('Create portal')");
    await page.fill("#tokens #f-name", "CI");
    await page.click("button:has-text('Create token')");
    const token = (await page.locator(".fresh-token pre code").first().innerText()).trim();
    expect(token).toMatch(/^ptk_/);
    const up = await fetch(`${baseUrl()}/v1/apis/upload?api=first`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: DEF });
    expect(up.status).toBe(201);
    await page.reload();
    expect(await page.locator("#apis").innerText()).toContain("First API");
    expect(await page.locator("#tokens").innerText()).toMatch(/CI\s+publish:apis/);
    // The refused form answered 400 on purpose; nothing else failed.
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  });
});
