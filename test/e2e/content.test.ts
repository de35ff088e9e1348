/**
 * @module Browser test of the demo-like content: code steps highlight the lines of the step being read (clicked,
 * or named by the URL), the language switch shows one language, a guide's operation link opens the operation
 * page, and the phone menu opens the navigation without script.
 */
import { describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "content-demo";

const demo = demoSuite(PORTAL);

const highlighted = (lang: string) => `.sample-lang[data-lang="${lang}"] .ln.hl`;

describe("content in Chromium", () => {
  it("highlights the lines of the step being read, per language", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/steps/create-first-shipment`, { waitUntil: "networkidle" });
    await page.locator("#step-3 h2").click();
    await page.waitForFunction(() => document.querySelector("#step-3")?.getAttribute("aria-current") === "step");
    const lines = (lang: string) => page.locator(highlighted(lang)).evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.n)));
    expect(await lines("javascript")).toEqual([9, 10, 11, 12]);
    expect(await lines("python")).toEqual([9, 10]);
    expect(await page.locator('.sample-lang[data-lang="python"]').isVisible()).toBe(false);
    await page.locator('.sample-tabs button[data-lang="python"]').click();
    expect(await page.locator('.sample-lang[data-lang="python"]').isVisible()).toBe(true);
    expect(await page.locator('.sample-lang[data-lang="javascript"]').isVisible()).toBe(false);
    await page.goto(`${baseUrl()}/p/${PORTAL}/steps/create-first-shipment#step-4`, { waitUntil: "networkidle" });
    await page.waitForFunction(() => document.querySelector("#step-4")?.getAttribute("aria-current") === "step");
    expect(await lines("javascript")).toEqual([14, 15]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("turns tab groups into tabs, choosing the same tab in every group", async () => {
    const page = await demo.browser.newPage();
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/authentication`, { waitUntil: "networkidle" });
    const panel = (title: string) => page.locator(".tabs .tab", { has: page.locator(".tab-title", { hasText: title }) });
    expect(await panel("Node.js").isVisible()).toBe(true);
    expect(await panel("Python").isVisible()).toBe(false);
    await page.getByRole("tab", { name: "Python" }).click();
    expect(await panel("Python").isVisible()).toBe(true);
    expect(await panel("Node.js").isVisible()).toBe(false);
    await page.getByRole("tab", { name: "Python" }).press("ArrowRight");
    expect(await panel("Node.js").isVisible()).toBe(true);
    await page.close();
  });

  it("opens the operation page from a guide's operation link", async () => {
    const page = await demo.browser.newPage();
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/quickstart`);
    await page.locator("main a", { hasText: "create a shipment" }).first().click();
    await page.waitForURL(/\/reference\/parcel-logistics-api\/2\.4\.0\/createshipment$/);
    expect(await page.locator("h1").textContent()).toContain("Create a shipment");
    await page.close();
  });

  it("opens the navigation behind the menu button on a phone, without script", async () => {
    const context = await demo.browser.newContext({ viewport: { width: 390, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/tracking`);
    expect(await page.locator("#side").isVisible()).toBe(false);
    await page.locator(".menu-lbl").click();
    expect(await page.locator("#side").isVisible()).toBe(true);
    expect(await page.locator("main h1").textContent()).toBe("Tracking");
    await context.close();
  });
});
