/**
 * @module Accessibility of the reader shell (issue 33): axe-core (WCAG 2.1 AA + best practices) on every reader
 * page type, in both themes, at phone (390 px) and desktop (1280 px) widths, must report no violation. Prints one
 * line per page, theme and width (the figures the issue asks for). The demo it publishes is branded (demo/content/
 * portico.yaml `brand:`: logo per theme, brand colours, links, custom CSS), so the brand is judged too.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runAxe, type AxeViolation } from "./axe";
import { baseUrl, createPortal, publish, demoSuite } from "./browser";
import { readerPageTypes } from "../../scripts/lib/page-types.mjs";

const PORTAL = "a11y";
const SINGLE = "a11y-single";
const DEMO = readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8");
const API = "parcel-logistics-api";

const demo = demoSuite(PORTAL, async (token) => {
  // A second version, so the changes page has something to compare.
  await publish(token, DEMO.replace("Create a shipment", "Create one shipment"), { api: API, version: "2.5.0" });
  const single = await createPortal(SINGLE);
  await publish(single, DEMO, { api: "parcels" });
  const res = await fetch(`${baseUrl()}/v1/apis/parcels`, {
    method: "PATCH", headers: { authorization: `Bearer ${single}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }),
  });
  if (!res.ok) throw new Error(`layout: ${res.status}`);
}, 240_000);

/** Page type → path under the server (the list bench/shell.mjs measures too). */
export const PAGE_TYPES: [string, string][] = readerPageTypes({ portal: PORTAL, single: SINGLE, api: API, version: "2.5.0", singleApi: "parcels", singleVersion: "2.4.0" });

const WIDTHS = [390, 1280];
const THEMES = ["light", "dark"] as const;

describe("axe-core on every reader page type", () => {
  for (const [name, path] of PAGE_TYPES) {
    it(`finds no violation on the ${name} page, both themes, 390 and 1280 px`, async () => {
      const found: Record<string, AxeViolation[]> = {};
      // One load per width; the theme is switched by emulating the reader's colour-scheme preference on the loaded
      // page (what the shell follows until a reader picks one), which halves the page loads of this, the suite's
      // longest file.
      for (const width of WIDTHS) {
        const context = await demo.browser.newContext({ viewport: { width, height: 900 }, colorScheme: THEMES[0], bypassCSP: true });
        const page = await context.newPage();
        await page.goto(baseUrl() + path, { waitUntil: "networkidle" });
        for (const theme of THEMES) {
          await page.emulateMedia({ colorScheme: theme });
          expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(theme === "dark");
          const violations = await runAxe(page);
          found[`${theme} ${width}`] = violations;
          console.log(`axe ${name.padEnd(24)} ${theme.padEnd(5)} ${String(width).padStart(4)} px: ${violations.length === 0 ? "0 violations" : violations.map((v) => `${v.id} (${v.impact}, ${v.nodes}: ${v.targets.join(" ")})`).join("; ")}`);
        }
        await context.close();
      }
      expect(Object.values(found).flat().map((v) => v.id)).toEqual([]);
    }, 180_000);
  }
});
