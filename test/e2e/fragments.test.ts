/**
 * @module Browser test of page weight: on an operation page past its inline budget, opening a property whose body
 * was deferred loads it in place from its fragment URL (no navigation, no console error, CSP respected).
 */
import type { Browser } from "playwright-core";
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
