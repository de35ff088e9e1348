/**
 * @module The demo's brand in Chromium (issue 33, docs/branding.md): the brand colour is what links, the current
 * tab and Try it's button are painted with, per theme; the theme's logo is the one shown; the brand's font and
 * stylesheet load under the portal's CSP (no violation reported); axe finds nothing with the phone menu open.
 */
import type { ConsoleMessage } from "playwright-core";
import { describe, expect, it } from "vitest";
import { runAxe } from "./axe";
import { baseUrl, demoSuite, storeEditorToken } from "./browser";

const PORTAL = "brand-demo";
/** demo/content/portico.yaml `brand.colors`: primary for the light theme, the dark variant for the dark one. */
const BRAND = { light: "rgb(154, 74, 0)", dark: "rgb(240, 164, 93)" } as const;

const demo = demoSuite(PORTAL);

describe("the demo's brand", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`paints links, the current tab and Try it in the brand colour (${theme} theme)`, async () => {
      const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: theme });
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on("console", (m: ConsoleMessage) => { if (m.type() === "error") cspErrors.push(m.text()); });
      await page.goto(`${baseUrl()}/p/${PORTAL}/guides/tracking`, { waitUntil: "networkidle" });
      const colours = await page.evaluate(() => ({
        link: getComputedStyle(document.querySelector("main p a[href]")!).color,
        tab: getComputedStyle(document.querySelector("header nav[aria-label=Sections] a[aria-current]")!).color,
        logo: [...document.querySelectorAll<HTMLImageElement>("header .logo")].filter((i) => i.getClientRects().length > 0).map((i) => i.className),
        // The shown logo has loaded; the other theme's (lazy, hidden) was never fetched.
        loaded: [...document.querySelectorAll<HTMLImageElement>("header .logo")].map((i) => i.naturalWidth > 0),
        radius: getComputedStyle(document.querySelector(".callout") ?? document.body).borderRadius,
      }));
      expect(colours.link).toBe(BRAND[theme]);
      expect(colours.tab).toBe(BRAND[theme]);
      expect(colours.logo).toEqual([theme === "dark" ? "logo logo-d" : "logo logo-l"]);
      expect(colours.loaded).toEqual(theme === "dark" ? [false, true] : [true, false]);
      await page.goto(`${baseUrl()}/p/${PORTAL}/reference/parcel-logistics-api/2.4.0/createshipment`, { waitUntil: "networkidle" });
      const button = await page.evaluate(() => {
        const b = document.querySelector<HTMLElement>(".try-open, .try-send")!;
        return { bg: getComputedStyle(b).backgroundColor, fg: getComputedStyle(b).color };
      });
      expect(button.bg).toBe(BRAND[theme]);
      expect(button.fg).toBe(theme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
      // The brand's stylesheets load under the CSP: Chromium reports a refused resource as a console error.
      expect(cspErrors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
      await context.close();
    });
  }

  it("loads the custom stylesheet (its rule is applied)", async () => {
    const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/tracking`, { waitUntil: "networkidle" });
    // demo/content/brand.css: `.top { border-bottom: 2px solid var(--accent) }`.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("header.top")!).borderBottomWidth)).toBe("2px");
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("header.top")!).borderBottomColor)).toBe(BRAND.light);
    await page.close();
  });

  for (const theme of ["light", "dark"] as const) {
    it(`gives the API editor the portal's design tokens and brand colour (${theme} theme)`, async () => {
      const context = await demo.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: theme });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (m: ConsoleMessage) => { if (m.type() === "error") errors.push(m.text()); });
      await storeEditorToken(page, PORTAL, demo.token);
      await page.goto(`${baseUrl()}/p/${PORTAL}/editor/parcel-logistics-api`);
      await page.locator(".ed-toolbar").waitFor();
      const look = await page.evaluate(() => {
        const root = getComputedStyle(document.documentElement);
        const pressed = document.querySelector<HTMLElement>(".ed-modes button[aria-pressed=true]")!;
        return {
          bg: getComputedStyle(document.body).backgroundColor,
          toolbar: getComputedStyle(document.querySelector(".ed-toolbar")!).backgroundColor,
          pressed: getComputedStyle(pressed).backgroundColor,
          soft: root.getPropertyValue("--soft").trim(),
        };
      });
      // portico.css's tokens (docs/branding.md): --bg and --soft per theme; the brand's colour on the pressed mode.
      expect(look.bg).toBe(theme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
      expect(look.soft).toBe(theme === "dark" ? "#161b22" : "#f6f8fa");
      expect(look.toolbar).toBe(theme === "dark" ? "rgb(22, 27, 34)" : "rgb(246, 248, 250)");
      expect(look.pressed).toBe(BRAND[theme]);
      expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
      await context.close();
    });
  }

  it("has no axe violation with the phone menu open, in both themes", async () => {
    for (const theme of ["light", "dark"] as const) {
      for (const path of ["guides/tracking", "reference/parcel-logistics-api/2.4.0/createshipment", "search?q=parcel"]) {
        const context = await demo.browser.newContext({ viewport: { width: 390, height: 800 }, colorScheme: theme, bypassCSP: true });
        const page = await context.newPage();
        await page.goto(`${baseUrl()}/p/${PORTAL}/${path}`, { waitUntil: "networkidle" });
        await page.locator("header .menu-btn").click();
        const violations = await runAxe(page);
        console.log(`axe menu open ${path.padEnd(52)} ${theme.padEnd(5)} 390 px: ${violations.length === 0 ? "0 violations" : violations.map((v) => `${v.id} (${v.impact}, ${v.nodes}: ${v.targets.join(" ")})`).join("; ")}`);
        expect(violations.map((v) => v.id), `${path} ${theme}`).toEqual([]);
        await context.close();
      }
    }
  }, 180_000);
});
