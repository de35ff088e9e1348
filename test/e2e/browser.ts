/** @module Launching Debian Chromium through playwright-core with the flags this machine needs, and page helpers. */
import { readFileSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs and the benchmark
import { readFolder, uploadContent, zipFiles } from "../../scripts/lib/content-bundle.mjs";

/** Headless Chromium, no sandbox (we run as root), no background network (the machine has none). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

/** Collects console errors and uncaught page errors, for "no console errors" assertions. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  return errors;
}

/** What a hostile page did when poked: `window.__xss` as the payloads set it, dialogs opened, console errors. */
export interface HostileVisit {
  xss: unknown;
  dialogs: string[];
  errors: string[];
  page: Page;
}

/**
 * Opens `url`, hovers every visible `hover` element, clicks every visible `click` element and every in-page
 * link in `main` (a payload may hide behind any of them), then reports what ran. The page stays open.
 */
export async function visitHostile(browser: Browser, url: string, pokes: { hover?: string; click: string[] }): Promise<HostileVisit> {
  const page = await browser.newPage();
  const errors = collectErrors(page);
  const dialogs: string[] = [];
  page.on("dialog", (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await page.goto(url, { waitUntil: "networkidle" });
  if (pokes.hover) for (const el of await page.locator(pokes.hover).all()) if (await el.isVisible()) await el.hover();
  for (const selector of [...pokes.click, "main a:not([href^='http']):not([href^='/'])"]) {
    for (const el of await page.locator(selector).all()) if (await el.isVisible()) await el.click({ noWaitAfter: true, timeout: 2000 }).catch(() => {});
  }
  await page.mouse.move(5, 5);
  const xss = await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
  return { xss, dialogs, errors, page };
}

/** The dev server's URL. */
export function baseUrl(): string {
  return inject("baseUrl");
}

/** Creates a portal over HTTP and returns its token. */
export async function createPortal(slug: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/v1/portals`, {
    method: "POST",
    headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
    body: JSON.stringify({ slug, name: `Portal ${slug}` }),
  });
  if (res.status !== 201) throw new Error(`createPortal: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Uploads a definition over HTTP; throws unless 200/201. */
export async function publish(token: string, body: string | Uint8Array<ArrayBuffer>, query: Record<string, string> = {}): Promise<any> {
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${baseUrl()}/v1/apis/upload${qs ? `?${qs}` : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" },
    body,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`publish: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates portal `slug` with the demo's definition and content bundle (as `npm start` has them); returns its token. */
export async function publishDemo(slug: string): Promise<string> {
  const token = await createPortal(slug);
  await publish(token, readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8"));
  const res = await uploadContent(baseUrl(), token, zipFiles(readFolder(new URL("../../demo/content", import.meta.url).pathname)));
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.json)}`);
  return token;
}

/** What {@link demoSuite} sets up: the demo portal's upload token and one Chromium. */
export interface DemoSuite {
  browser: Browser;
  token: string;
}

/**
 * A browser suite over the demo: `beforeAll` publishes it as portal `slug` ({@link publishDemo}), runs `setup` with
 * its token (more versions, access settings, a domain), then launches Chromium; `afterAll` closes it. The fields of
 * the object returned are set once `beforeAll` has run. `timeoutMs`: of the whole set-up.
 */
export function demoSuite(slug: string, setup?: (token: string) => Promise<void>, timeoutMs = 180_000): DemoSuite {
  const suite = {} as DemoSuite;
  beforeAll(async () => {
    suite.token = await publishDemo(slug);
    await setup?.(suite.token);
    suite.browser = await launchBrowser();
  }, timeoutMs);
  afterAll(async () => {
    await suite.browser?.close();
  });
  return suite;
}

/** Stores `token` for `portal`'s editor in every document `page` opens (sessionStorage, as sign-in leaves it). */
export async function storeEditorToken(page: Page, portal: string, token: string): Promise<void> {
  await page.addInitScript(({ portal, t }) => sessionStorage.setItem(`portico:token:${portal}`, t), { portal, t: token });
}

/**
 * Opens the editor's page setup for `portal` with its `token` stored (as sign-in leaves it) and the editor bundle
 * (`/assets/editor.js`) held back until the returned `release` is called, so a test can look at what the page
 * paints before the bundle runs.
 */
export async function holdEditorBundle(page: Page, portal: string, token: string): Promise<() => void> {
  await storeEditorToken(page, portal, token);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route("**/assets/editor.js", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
