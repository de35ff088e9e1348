/**
 * @module The reader shell in Chromium (issue 33): at 390 px the sidebar hides behind the banner's Menu button,
 * which opens it, keeps focus inside while open (Tab and Shift-Tab wrap) and gives focus back on Escape or a
 * second press; at 1280 px the sidebar is shown and the button is not, and the banner is one row. Keyboard-only
 * search, Authorize and Try it are test/e2e/keyboard.test.ts.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "shell-menu";

const demo = demoSuite(PORTAL);

/** Whether the focused element is the menu button, inside the banner's folded controls or inside the sidebar. */
const focusInMenu = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return !!el && (el.classList.contains("menu-btn") || !!document.getElementById("top-more")?.contains(el) || !!document.getElementById("side")?.contains(el));
});

describe("the shell's phone menu", () => {
  for (const path of ["guides/tracking", "reference/parcel-logistics-api/2.4.0/createshipment"]) {
    it(`opens, traps focus and gives it back on ${path}`, async () => {
      const page = await demo.browser.newPage({ viewport: { width: 390, height: 800 } });
      const errors = collectErrors(page);
      await page.goto(`${baseUrl()}/p/${PORTAL}/${path}`, { waitUntil: "networkidle" });
      const button = page.locator("header .menu-btn");
      expect(await page.locator("#side").isVisible()).toBe(false);
      expect(await button.getAttribute("aria-expanded")).toBe("false");
      await button.focus();
      await page.keyboard.press("Enter");
      expect(await page.locator("#side").isVisible()).toBe(true);
      // The banner's tabs and controls open with it.
      expect(await page.locator("#top-more nav[aria-label=Sections]").isVisible()).toBe(true);
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      expect(await focusInMenu(page)).toBe(true);
      // More presses than the menu has stops: focus wraps and never reaches the page behind.
      const stops = await page.locator("#top-more :is(a, button, input, summary):visible, #side :is(a, summary):visible").count();
      for (let i = 0; i < stops + 3; i++) {
        await page.keyboard.press("Tab");
        expect(await focusInMenu(page)).toBe(true);
      }
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("Shift+Tab");
        expect(await focusInMenu(page)).toBe(true);
      }
      await page.keyboard.press("Escape");
      expect(await page.locator("#side").isVisible()).toBe(false);
      expect(await page.locator("#top-more nav[aria-label=Sections]").isVisible()).toBe(false);
      expect(await button.getAttribute("aria-expanded")).toBe("false");
      expect(await page.evaluate(() => document.activeElement?.classList.contains("menu-btn"))).toBe(true);
      // A second press of the button closes it too.
      await button.click();
      await button.click();
      expect(await page.locator("#side").isVisible()).toBe(false);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it("keeps the phone banner to one row: logo, name, Menu and Ask AI", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 390, height: 800 } });
    for (const path of ["guides/tracking", "reference/parcel-logistics-api/2.4.0/createshipment", "search?q=parcel"]) {
      await page.goto(`${baseUrl()}/p/${PORTAL}/${path}`, { waitUntil: "networkidle" });
      const rows = await page.evaluate(() => {
        const header = document.querySelector("header.top")!;
        const visible = [...header.querySelectorAll<HTMLElement>("a, button, input, img")].filter((el) => el.getClientRects().length > 0);
        return { height: header.getBoundingClientRect().height, tops: [...new Set(visible.map((el) => Math.round(el.getBoundingClientRect().top / 8)))].length, names: visible.map((el) => el.className || el.tagName) };
      });
      expect(rows.names, path).toEqual(["brand", "logo logo-l", "menu-btn needs-js", "ask-btn needs-js"]);
      expect(rows.height, path).toBeLessThan(60);
      // Without a sidebar (search) the Menu holds the banner's controls alone.
      await page.locator("header .menu-btn").click();
      expect(await page.locator("#top-more .sb-input, #top-more nav[aria-label=Sections]").first().isVisible(), path).toBe(true);
      await page.keyboard.press("Escape");
    }
    await page.close();
  });

  it("shows the sidebar and no menu button at 1280 px", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/tracking`, { waitUntil: "networkidle" });
    expect(await page.locator("#side").isVisible()).toBe(true);
    expect(await page.locator("header .menu-btn").isVisible()).toBe(false);
    await page.close();
  });

  it("keeps the desktop banner to one row at 1280 px, with room for one more control, and names the theme button", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const path of ["guides/tracking", "reference/parcel-logistics-api/2.4.0/createshipment", "search?q=parcel"]) {
      await page.goto(`${baseUrl()}/p/${PORTAL}/${path}`, { waitUntil: "networkidle" });
      const row = await page.evaluate(() => {
        const shown = [...document.querySelectorAll<HTMLElement>("header.top a, header.top button, header.top input, header.top summary")].filter((el) => el.checkVisibility());
        const rects = shown.map((el) => el.getBoundingClientRect());
        const search = document.querySelector<HTMLElement>("header.top .sb");
        return {
          // One row: every control overlaps every other vertically (the lowest top is above the highest bottom).
          rows: Math.max(...rects.map((r) => r.top)) < Math.min(...rects.map((r) => r.bottom)) ? 1 : shown.map((el, i) => `${el.tagName}.${el.className}:${Math.round(rects[i].top)}-${Math.round(rects[i].bottom)}`).join(" "),
          overflow: document.querySelector("header.top")!.scrollWidth - document.querySelector("header.top")!.clientWidth,
          names: shown.length,
          // The search box can still give up this much before it reaches its 7em minimum: room for one more control.
          spare: (search?.getBoundingClientRect().width ?? 0) - 7 * parseFloat(getComputedStyle(search ?? document.body).fontSize) + (document.querySelector<HTMLElement>("header.top .grow")?.getBoundingClientRect().width ?? 0),
        };
      });
      expect(row.rows, path).toBe(1);
      expect(row.overflow, path).toBeLessThanOrEqual(0);
      expect(row.spare, path).toBeGreaterThanOrEqual(90);
    }
    const theme = page.getByRole("button", { name: "Dark mode" });
    expect(await theme.isVisible()).toBe(true);
    expect(await theme.getAttribute("aria-pressed")).toBe("false");
    await page.close();
  });
});
