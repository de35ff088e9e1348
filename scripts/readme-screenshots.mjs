#!/usr/bin/env node
/**
 * Retakes the README's screenshots (docs/images/*.png) from a running demo: `npm start` first, then
 * `node scripts/readme-screenshots.mjs [origin]` (default http://127.0.0.1:8787). Debian Chromium through
 * playwright-core, 1280×800, light theme.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const origin = process.argv[2] ?? "http://127.0.0.1:8787";
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "images");
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
  const shot = async (name, path, act) => {
    await page.goto(`${origin}${path}`, { waitUntil: "networkidle" });
    if (act) await act(page);
    await page.screenshot({ path: join(out, `${name}.png`) });
    console.log(`docs/images/${name}.png ← ${path}`);
  };
  await shot("reference", "/p/demo/reference/parcel-logistics-api/2.4.0/createshipment");
  await shot("guide-search", "/p/demo/guides/introduction", async (p) => {
    await p.locator('input[type="search"]').first().fill("cancel shipment");
    await p.waitForTimeout(800);
  });
  await shot("changes", "/p/demo/reference/parcel-logistics-api/changes");
} finally {
  await browser.close();
}
