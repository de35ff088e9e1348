/**
 * @module Browser test of page weight: on an operation page past its inline budget, opening a property whose body
 * was deferred loads it in place from its fragment URL (no navigation, no console error, CSP respected), and so
 * does a long response example, whose copy button then copies the whole.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { heavyDefinition } from "../../worker/render/testing/heavy";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish } from "./browser";

const PORTAL = "fragments-e2e";
let browser: Browser;

beforeAll(async () => {
  const token = await createPortal(PORTAL);
  await publish(token, heavyDefinition(), { api: "heavy" });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

it("opening a deferred property loads its fields in place", async () => {
  const page = await browser.newPage();
  const errors = collectErrors(page);
  const url = `${baseUrl()}/p/${PORTAL}/reference/heavy/1.0/getthings`;
  await page.goto(url, { waitUntil: "networkidle" });
  const row = page.locator("li", { has: page.locator("code", { hasText: /^group_39$/ }) });
  expect(await row.locator(".df").count()).toBe(1);
  await row.locator("summary").first().click();
  await row.locator("code", { hasText: /^leaf_39_7$/ }).waitFor({ timeout: 10_000 });
  expect(await row.locator(".df").count()).toBe(0);
  expect(page.url()).toBe(url);
  expect(errors).toEqual([]);
});

it("showing a long example loads it whole in place, and its copy button copies the whole", async () => {
  const context: BrowserContext = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
  const page = await context.newPage();
  const errors = collectErrors(page);
  const url = `${baseUrl()}/p/${PORTAL}/reference/heavy/1.0/publishthing`;
  await page.goto(url, { waitUntil: "networkidle" });
  const aside = page.locator("aside.op-x");
  // The 202 tab's example (the third deferred one); tabs show one panel at a time, so pick it first.
  await aside.locator("label, [role=tab]", { hasText: "202" }).first().click();
  const placeholder = aside.locator(".df", { hasText: "Show the whole example" }).nth(2);
  expect(await aside.locator(".df").count()).toBe(3);
  await placeholder.locator("a").click();
  const code = aside.locator(".fb pre code");
  await code.filter({ hasText: "last_field_of_queued" }).waitFor({ timeout: 10_000 });
  expect(await aside.locator(".df").count()).toBe(2);
  expect(page.url()).toBe(url);
  const copy = aside.locator(".fb .cp");
  await copy.click();
  await expect.poll(() => copy.textContent()).toBe("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('"last_field_of_queued": true');
  expect(copied).toBe(await code.textContent());
  expect(errors).toEqual([]);
  await context.close();
});
