/**
 * @module Browser test of the assistant panel (issue 28) over the demo: the top bar's "Ask AI" button and Ctrl-I open
 * it; a question streams an answer with numbered sources and the model line; a follow-up stays in the thread; thumbs
 * record feedback; "New thread" clears it. At 390 px the panel fills the screen and nothing scrolls sideways. axe
 * finds no violations in the open panel. Without script, the search page's form answers on a server-rendered page.
 */
import { describe, expect, it } from "vitest";
import { runAxe } from "./axe";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "assistant-demo";

const demo = demoSuite(PORTAL);

describe("the Ask AI panel in Chromium", () => {
  it("asks, streams, cites, follows up, takes thumbs, starts a new thread", async () => {
    // bypassCSP only lets axe inject itself; the panel's own script runs under the page's CSP in the other tests.
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/introduction`, { waitUntil: "networkidle" });
    await page.locator("button.ask-btn").click();
    const box = page.locator("dialog.ask-panel textarea");
    await box.waitFor();
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    const streamed = page.waitForResponse((r) => r.url().endsWith("/assistant/ask") && (r.headers()["content-type"] ?? "").includes("text/event-stream"));
    await box.fill("how do I cancel a shipment that already has a label?");
    await box.press("Enter");
    await streamed;
    const first = page.locator(".ask-turn").first();
    await first.locator(".ask-thumbs").waitFor();
    expect(await first.locator(".ask-a").textContent()).toMatch(/Cancel/);
    expect(await first.locator(".ask-a a.ask-cite").count()).toBeGreaterThan(0);
    const sources = first.locator(".ask-sources li");
    expect(await sources.count()).toBeGreaterThan(0);
    expect(await sources.first().locator("a").getAttribute("href")).toMatch(new RegExp(`^/p/${PORTAL}/`));
    expect(await page.locator(".ask-model").textContent()).toContain("portico-extractive-1");
    // Thumbs up: a 204 from the feedback route, and the button shows it.
    const fb = page.waitForResponse((r) => r.url().endsWith("/assistant/feedback"));
    await first.locator(".ask-thumbs button").first().click();
    expect((await fb).status()).toBe(204);
    expect(await first.locator(".ask-thumbs button").first().getAttribute("aria-pressed")).toBe("true");
    // Follow-up in the same thread.
    const follow = page.waitForResponse((r) => r.url().endsWith("/assistant/ask"));
    await box.fill("and how do I track it?");
    await box.press("Enter");
    const body = JSON.parse((await follow).request().postData() ?? "{}");
    expect(typeof body.threadId).toBe("string");
    await page.locator(".ask-turn").nth(1).locator(".ask-thumbs").waitFor();
    expect(await page.locator(".ask-turn").count()).toBe(2);
    expect(await runAxe(page)).toEqual([]);
    await page.locator("button.ask-new").click();
    expect(await page.locator(".ask-turn").count()).toBe(0);
    await page.keyboard.press("Escape");
    expect(await page.locator("dialog.ask-panel").evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Ctrl-I opens it anywhere; at 390 px it fills the screen without sideways scrolling", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/reference/parcel-logistics-api/`, { waitUntil: "networkidle" });
    await page.keyboard.press("Control+i");
    const panel = page.locator("dialog.ask-panel");
    await panel.locator("textarea").waitFor();
    await panel.locator("textarea").fill("how do I cancel a shipment that already has a label?");
    await panel.locator("textarea").press("Enter");
    await panel.locator(".ask-thumbs").first().waitFor();
    const box = await panel.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(await panel.evaluate((d) => d.scrollWidth <= d.clientWidth + 1)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("without script, the search page's Ask AI form answers on its own page", async () => {
    const context = await demo.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/p/${PORTAL}/search?q=cancel+shipment`);
    expect(await page.locator("button.ask-btn").isVisible()).toBe(false);
    await page.locator("form.ask-nojs input[name=q]").fill("how do I cancel a shipment that already has a label?");
    await Promise.all([page.waitForURL(/\/assistant\?q=/), page.locator("form.ask-nojs button").click()]);
    expect(await page.locator(".ask-a").textContent()).toMatch(/Cancel/);
    expect(await page.locator(".ask-sources li").count()).toBeGreaterThan(0);
    await context.close();
  });
});
