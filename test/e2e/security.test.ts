/**
 * @module Browser tests of the security baseline (issue 15) in Debian Chromium against `wrangler dev`: static
 * assets carry nosniff; reader pages and the editor run under their CSP with zero violations (islands, theme
 * toggle, code-sample tabs, the editor's CodeMirror and lint worker); an outside image in a description is
 * blocked unless the portal opts in.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, createPortal, launchBrowser, publish, storeEditorToken } from "./browser";

const DEMO = readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8");
const PORTAL = "security-e2e";
const TRACKER = "https://tracker.example/pixel.png";

let browser: Browser;
let token: string;

beforeAll(async () => {
  token = await createPortal(PORTAL);
  await publish(token, DEMO, { api: "parcels", version: "2.4" });
  const withImage = DEMO.replace("  description: |\n", `  description: |\n    ![pixel](${TRACKER})\n\n`);
  await publish(token, withImage, { api: "pixel", version: "1" });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens a page recording every CSP violation (the event fires whatever the console shows). */
async function open(url: string, init?: (page: Page) => Promise<unknown>): Promise<{ page: Page; errors: string[]; violations: () => Promise<string[]> }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectErrors(page);
  await page.addInitScript(() => {
    const seen: string[] = ((globalThis as any).__csp = []);
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await init?.(page);
  await page.goto(url, { waitUntil: "networkidle" });
  return { page, errors, violations: () => page.evaluate(() => (globalThis as any).__csp as string[]) };
}

describe("security baseline in the browser", () => {
  it("static assets carry nosniff and a referrer policy (client/static/_headers)", async () => {
    for (const path of ["/portico.css", "/tokens.css", "/editor.css", "/assets/islands.js", "/assets/theme-init.js", "/assets/editor-early.js", "/assets/editor.js", "/assets/lint-worker.js"]) {
      const res = await fetch(`${baseUrl()}${path}`);
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      if (path.startsWith("/assets/")) expect(res.headers.get("content-security-policy"), path).toBe("default-src 'none'; script-src 'self'; connect-src 'self'");
    }
  });

  it("an operation page: islands hydrate, theme toggle and code-sample tabs work, no CSP violation", async () => {
    const { page, errors, violations } = await open(`${baseUrl()}/p/${PORTAL}/reference/parcels/2.4/createshipment`);
    expect(await page.evaluate(() => document.documentElement.classList.contains("js"))).toBe(true);
    await page.locator("button.tt").click();
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(theme === "dark" || theme === "light").toBe(true);
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme); // theme-init.js applied it
    await page.locator(".cs-tabs button", { hasText: "Python" }).click();
    await expect.poll(() => page.locator(".cs-code code").textContent()).toContain("requests.");
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the version index (anchors script) and the editor (CodeMirror, lint worker): no CSP violation", async () => {
    const index = await open(`${baseUrl()}/p/${PORTAL}/reference/parcels/2.4/`);
    expect(await index.violations()).toEqual([]);
    expect(index.errors).toEqual([]);
    await index.page.close();
    const editor = await open(`${baseUrl()}/p/${PORTAL}/editor/parcels?view=split`, (page) => storeEditorToken(page, PORTAL, token));
    await editor.page.waitForSelector(".cm-content", { state: "attached" });
    await editor.page.waitForFunction(() => {
      const s = (globalThis as any).__porticoEditor;
      return s && s.store.state.problemsVersion === s.store.state.version;
    });
    // CodeMirror's run-time styles apply (constructed style sheets): its gutter is laid out beside the text.
    const gutter = await editor.page.locator(".cm-gutters").boundingBox();
    expect(gutter?.width ?? 0).toBeGreaterThan(10);
    expect(await editor.violations()).toEqual([]);
    expect(editor.errors).toEqual([]);
    await editor.page.close();
  });

  it("an image from another origin in a description is blocked, unless the portal opts in", async () => {
    const url = `${baseUrl()}/p/${PORTAL}/reference/pixel/1/`;
    const blocked = await open(url);
    expect(await blocked.page.locator(`img[src="${TRACKER}"]`).count()).toBeGreaterThan(0);
    expect(await blocked.violations()).toContain(`img-src ${TRACKER}`);
    await blocked.page.close();
    const res = await fetch(`${baseUrl()}/v1/portal`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ externalImages: true }),
    });
    expect(res.status).toBe(200);
    const allowed = await open(url);
    expect(await allowed.violations()).toEqual([]);
    await allowed.page.close();
  });
});
