/**
 * @module Browser test: a definition whose every reader-visible field carries script, event-handler and
 * `javascript:` payloads (worker/render/testing/hostile-definition.yaml) executes nothing on any page, in both
 * layouts, even when the reader clicks links, opens details and switches tabs.
 */
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createPortal, launchBrowser, visitHostile, publish } from "./browser";

const HOSTILE = readFileSync(new URL("../../worker/render/testing/hostile-definition.yaml", import.meta.url), "utf8");
const PORTAL = "reference-xss";
let browser: Browser;
let token: string;

beforeAll(async () => {
  token = await createPortal(PORTAL);
  await publish(token, HOSTILE, { api: "hostile", version: "1" });
  await publish(token, HOSTILE, { api: "hostile-single", version: "1" });
  const res = await fetch(`${baseUrl()}/v1/apis/hostile-single`, {
    method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }),
  });
  if (!res.ok) throw new Error(`layout: ${res.status}`);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens every `<details>` and tab and follows in-page links: a payload may hide behind any of them. */
const visit = (url: string) => visitHostile(browser, url, { click: ["summary", ".tabs > label"] });

describe("hostile definition", () => {
  it("runs nothing on the index and on every operation page", async () => {
    const index = await visit(`${baseUrl()}/p/${PORTAL}/reference/hostile/1/`);
    const hrefs = await index.page.locator("main a.opl").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(index.xss).toBeUndefined();
    expect(index.dialogs).toEqual([]);
    expect(index.errors).toEqual([]);
    await index.page.close();
    expect(hrefs.length).toBeGreaterThanOrEqual(2);
    for (const href of new Set(hrefs)) {
      const r = await visit(href);
      expect(r.xss, href).toBeUndefined();
      expect(r.dialogs, href).toEqual([]);
      expect(r.errors, href).toEqual([]);
      expect(await r.page.locator("h1").count(), href).toBe(1);
      await r.page.close();
    }
  });

  it("runs nothing on the single page", async () => {
    const r = await visit(`${baseUrl()}/p/${PORTAL}/reference/hostile-single/1/`);
    expect(r.xss).toBeUndefined();
    expect(r.dialogs).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(await r.page.locator("article.op").count()).toBe(2);
    await r.page.close();
  });
});
