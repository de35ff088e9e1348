/**
 * @module Browser test of analytics (issue 29) in Debian Chromium against `wrangler dev`, on the demo with a seeded
 * month (scripts/lib/demo-analytics.mjs, as `npm start` seeds it): the search box reports a typing session's final
 * query and the result opened, the page's "Was this page helpful?" records a No with its comment, the dashboard draws
 * its charts and the range picker changes them (also in the dark theme and at phone width), and the backlog drafts a
 * guide for a group of no-hit queries.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { seedDemoAnalytics } from "../../scripts/lib/demo-analytics.mjs";

const PORTAL = "analytics-e2e";
const suite = demoSuite(PORTAL, async (token) => {
  await seedDemoAnalytics({ origin: baseUrl(), site: `${baseUrl()}/p/${PORTAL}`, token });
});

async function api(path: string): Promise<any> {
  const res = await fetch(`${baseUrl()}/v1/analytics/${path}`, { headers: { authorization: `Bearer ${suite.token}` } });
  return res.json();
}

/** Polls `check` (beacons arrive after the page moved on). */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 50 && !check(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

async function signIn(page: Page, view: "analytics" | "backlog"): Promise<void> {
  await page.goto(`${baseUrl()}/p/${PORTAL}/admin/${view}`);
  await page.fill('input[name="token"]', suite.token);
  await page.click('#signin button[type="submit"]');
}

const today = () => new Date().toISOString().slice(0, 10);

describe("analytics in the browser", () => {
  it("the search box reports the final query of a typing session and the result opened; feedback records a No with its comment", async () => {
    const page = await suite.browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/introduction`);
    const box = page.locator("input.sb-input");
    await box.click();
    await box.pressSequentially("invoic", { delay: 30 });
    await box.pressSequentially("es", { delay: 30 });
    await page.waitForSelector(".sb-empty");
    await page.locator("main h1").click(); // leaving the box ends the session
    const noHit = await eventually(() => api(`search?from=${today()}`), (r) => r.noHitQueries.some((q: any) => q.q === "invoices"));
    expect(noHit.noHitQueries.find((q: any) => q.q === "invoices").count).toBe(1);
    // Only the final query: none of the prefixes typed on the way.
    expect(noHit.topQueries.map((q: any) => q.q)).toEqual(["invoices"]);

    await box.fill("");
    await box.pressSequentially("webhooks", { delay: 20 });
    await page.waitForSelector("#sb-list li");
    await Promise.all([page.waitForURL(/guides|reference/), page.locator("#sb-list li").first().click()]);
    const clicked = await eventually(() => api(`search?from=${today()}`), (r) => r.totals.clicks === 1);
    expect(clicked.topQueries.find((q: any) => q.q === "webhooks")).toMatchObject({ count: 1, clicks: 1, avgClickPosition: 1 });

    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/pagination`);
    const fb = page.locator("section.fb");
    await fb.scrollIntoViewIfNeeded();
    expect(await fb.isVisible()).toBe(true);
    await fb.locator("button[data-helpful=no]").click();
    await fb.locator("textarea").fill("Show the <b>cursor</b> format");
    await fb.locator("button[type=submit]").click();
    await page.waitForSelector(".fb-thanks:not([hidden])");
    const pages = await eventually(() => api(`pages?from=${today()}`), (r) => r.some((p: any) => p.url.endsWith("/guides/pagination") && p.comments.length));
    expect(pages.find((p: any) => p.url === `/p/${PORTAL}/guides/pagination`)).toMatchObject({ notHelpful: 1, comments: [{ helpful: false, comment: "Show the <b>cursor</b> format" }] });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("draws the dashboard's charts, and the range picker redraws them; readable in the dark theme and on a phone", async () => {
    const page = await suite.browser.newPage({ colorScheme: "dark", viewport: { width: 390, height: 844 } });
    const errors = collectErrors(page);
    await signIn(page, "analytics");
    await page.waitForSelector('svg[data-chart="searches"]');
    for (const chart of ["searches", "rates", "positions"]) expect(await page.locator(`svg[data-chart="${chart}"]`).count()).toBe(1);
    expect(await page.locator('svg[data-chart="searches"] rect.bar').count()).toBe(30);
    const month = Number(await page.locator('[data-total="searches"]').innerText());
    expect(month).toBeGreaterThan(1000);
    expect(await page.locator(".an-tables").innerText()).toContain("invoices");

    await page.click('button[data-days="7"]');
    await page.waitForFunction(() => document.querySelectorAll('svg[data-chart="searches"] rect.bar').length === 7);
    const week = Number(await page.locator('[data-total="searches"]').innerText());
    expect(week).toBeGreaterThan(0);
    expect(week).toBeLessThan(month);
    expect(page.url()).toContain("from=");

    // The dark theme's accent fills the bars; nothing is wider than the phone.
    expect(await page.locator('svg[data-chart="searches"] rect.bar').first().evaluate((el) => getComputedStyle(el).fill)).toBe("rgb(88, 166, 255)");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("drafts a guide for a group of no-hit queries, for review", async () => {
    const page = await suite.browser.newPage();
    const errors = collectErrors(page);
    await signIn(page, "backlog");
    await page.waitForSelector("ol.an-backlog li");
    const first = page.locator("ol.an-backlog li").first();
    expect(await first.innerText()).toMatch(/invoices[\s\S]*“invoce”/);
    await first.locator("button").click();
    await page.waitForSelector("section.draft textarea");
    expect(await page.locator("section.draft input").inputValue()).toBe("Invoices");
    expect(await page.locator("section.draft textarea").inputValue()).toContain("Readers asked for this");
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
