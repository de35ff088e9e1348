/**
 * @module Browser test of search (issue 9) over the demo API and content: the top bar's box shows results as the
 * reader types (marked matches, kind and API badges), arrow keys and Enter open the chosen result; Ctrl-K opens
 * the quick switcher on a reference page and Enter jumps; without script the box is a form that lands on the
 * results page. No console errors (a CSP violation would be one).
 */
import { describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "search-demo";

const demo = demoSuite(PORTAL);

describe("search in Chromium", () => {
  it("shows results while typing; arrow down and Enter open the chosen result", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/authentication`, { waitUntil: "networkidle" });
    const box = page.locator("input.sb-input");
    await box.click();
    // The list for the whole query, not an earlier keystroke's: a late answer re-renders it and resets the selection.
    const final = page.waitForResponse((r) => r.url().includes("/search.json?") && new URL(r.url()).searchParams.get("q") === "cancel shipm");
    await box.pressSequentially("cancel shipm", { delay: 20 });
    await final;
    const options = page.locator("#sb-list [role=option]");
    await options.first().waitFor();
    expect(await page.locator("#sb-list .sr-badge.sr-operation").count()).toBeGreaterThan(0);
    expect(await page.locator("#sb-list .sr-title mark").count()).toBeGreaterThan(0);
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe("sb-list-1");
    await box.press("ArrowUp");
    expect(await options.nth(0).getAttribute("aria-selected")).toBe("true");
    const href = await options.nth(0).locator("a").getAttribute("href");
    expect(href).toMatch(/^\/p\/search-demo\//);
    await Promise.all([page.waitForURL((u) => u.pathname + u.hash === href), box.press("Enter")]);
    expect(await page.locator("h1").first().textContent()).toBeTruthy();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Ctrl-K opens the quick switcher anywhere; Enter jumps to the first result", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/reference/parcel-logistics-api/`, { waitUntil: "networkidle" });
    await page.keyboard.press("Control+k");
    const input = page.locator("dialog.qs input.qs-input");
    await input.waitFor();
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.pressSequentially("webhook retries", { delay: 20 });
    const first = page.locator("#qs-list [role=option]").first();
    await first.waitFor();
    expect(await first.getAttribute("aria-selected")).toBe("true");
    const href = (await first.locator("a").getAttribute("href"))!;
    await Promise.all([page.waitForURL((u) => u.pathname + u.hash === href), input.press("Enter")]);
    expect(errors).toEqual([]);

    await page.waitForLoadState("networkidle");
    await page.keyboard.press("Control+k");
    await input.waitFor();
    await input.press("Escape");
    expect(await page.locator("dialog.qs[open]").count()).toBe(0);
    await page.close();
  });

  it("without script, the box is a form that lands on the results page", async () => {
    const context = await demo.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/authentication`);
    await page.locator("input.sb-input").fill("create shipment");
    await Promise.all([page.waitForURL(/\/search\?q=create\+shipment/), page.locator("input.sb-input").press("Enter")]);
    const results = page.locator(".sp-results > li");
    expect(await results.count()).toBeGreaterThan(0);
    expect(await results.first().locator("a.sr-title").textContent()).toMatch(/shipment/i);
    await page.locator(".sp-kinds a", { hasText: "Guide" }).click();
    expect(new URL(page.url()).searchParams.get("kind")).toBe("guide");
    await context.close();
  });
});
