/**
 * @module Browser test of the API editor on a large definition (issue 12) in Debian Chromium against `wrangler
 * dev`: DigitalOcean's description (1 MB, pretty-printed; 290 operations). The outline is
 * virtualised (only rows near the view are in the DOM), scrolls down to an operation far down and selects it,
 * and its summary edited in the form is written into the JSON text in place; an edit in the Source view shows a
 * new problem. The problem table is virtualised too: on a definition with
 * hundreds of problems, few rows are in the DOM, the keyboard reaches the last one, and selecting it reveals its
 * line. GitHub's 13 MB description runs in bench/editor.mjs instead (publishing it through wrangler dev alone
 * takes minutes on the CI machine).
 */
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, createPortal, holdEditorBundle, launchBrowser, publish, storeEditorToken } from "./browser";

const DIGITALOCEAN = JSON.stringify(JSON.parse(readFileSync(new URL("../../../shared/corpus/apis-guru-npm/api/digitalocean.com.json", import.meta.url), "utf8")), null, 2);
const PORTAL = "editor-large-e2e";
/** 300 operations without operationId, description or tags: 900 warnings. */
const MANY_PROBLEMS = [
  "openapi: 3.0.3",
  "info: {title: Many, version: '1', description: d, contact: {name: n, url: 'https://x.test', email: a@x.test}, license: {name: MIT, url: 'https://x.test'}}",
  "servers: [{url: 'https://api.x.test'}]",
  "tags: []",
  "paths:",
  ...Array.from({ length: 300 }, (_, i) => `  /r${i}:\n    get:\n      responses: {'200': {description: ok}}`),
  "",
].join("\n");

let browser: Browser;
let token: string;

beforeAll(async () => {
  token = await createPortal(PORTAL);
  await publish(token, DIGITALOCEAN, { api: "digitalocean" });
  await publish(token, MANY_PROBLEMS, { api: "many" });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

describe("API editor on a large definition", () => {
  it("paints only the first part of the definition before the editor bundle runs", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const release = await holdEditorBundle(page, PORTAL, token);
    await page.goto(`${baseUrl()}/p/${PORTAL}/editor/digitalocean?view=source`);
    await page.locator("[data-early-source]").waitFor();
    const shown = await page.evaluate(() => ({
      text: document.querySelector(".ed-early-text")!.textContent!,
      numbers: document.querySelector(".ed-early-numbers")!.textContent!.split("\n"),
    }));
    // 64 Ki characters cut at a line end, out of 1 MB; one number per line.
    expect(shown.text.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(shown.text.length).toBeLessThan(64 * 1024 + 1000);
    expect(DIGITALOCEAN.startsWith(shown.text)).toBe(true);
    expect(shown.numbers.length).toBe(shown.text.replace(/\n$/, "").split("\n").length);
    expect(shown.numbers.at(-1)).toBe(String(shown.numbers.length));
    release();
    // The editor takes over and the whole text arrives.
    await page.waitForFunction((n) => (globalThis as any).__porticoEditor?.store.state.loading === false && (globalThis as any).__porticoEditor.view.state.doc.length === n, DIGITALOCEAN.length, { timeout: 60_000 });
    expect(await page.locator("[data-early-source]").count()).toBe(0);
    await page.close();
  });

  it("virtualises the outline, scrolls to and selects an operation far down, and shows a new problem after an edit", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = collectErrors(page);
    await storeEditorToken(page, PORTAL, token);
    await page.goto(`${baseUrl()}/p/${PORTAL}/editor/digitalocean?view=visual`);
    const scroller = page.locator(".ed-nav-scroll");
    await scroller.waitFor({ timeout: 60_000 });
    await page.locator(".ed-nav-item").first().waitFor();

    // Many rows, few of them in the DOM.
    const total = Number(await scroller.getAttribute("data-rows"));
    expect(total).toBeGreaterThan(250);
    expect(await page.locator(".ed-nav-row").count()).toBeLessThan(100);

    // The last operation in the outline, reached by scrolling the outline with the mouse wheel.
    const last = await page.evaluate(() => {
      const ops = (globalThis as any).__porticoEditor.store.state.model.outline.filter((e: { kind: string }) => e.kind === "operation");
      return { pointer: ops.at(-1).pointer as string, path: ops.at(-1).path as string, count: ops.length as number };
    });
    expect(last.count).toBeGreaterThan(250);
    const row = page.locator(`[data-entry="${last.pointer}"]`);
    expect(await row.count()).toBe(0);
    const box = (await scroller.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 200 && (await row.count()) === 0; i++) await page.mouse.wheel(0, 600);
    await row.click();
    await expect.poll(() => row.getAttribute("aria-current")).toBe("true");
    await expect.poll(() => page.locator(".ed-form h2").innerText()).toContain(last.path);
    expect(await page.locator(".ed-nav-row").count()).toBeLessThan(100);

    // Its summary edited in the form lands in the JSON text in place (the model's slots are offsets into the
    // view's text, from the JSON reader in the document worker, which got the streamed bytes).
    const summary = page.locator(`[data-pointer="${last.pointer}/summary"]`);
    await summary.waitFor();
    expect(await summary.inputValue()).toBe("List the Member Resources of a VPC");
    await summary.fill('List a VPC\'s "members"');
    const expected = JSON.parse(DIGITALOCEAN);
    expected.paths[last.path].get.summary = 'List a VPC\'s "members"';
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text() as string)).toBe(JSON.stringify(expected, null, 2));

    // Source view: a script tag typed into a description far down the file is reported.
    await page.click(".ed-modes button:text-is('Source')");
    const before = await page.locator(".ed-problem[data-rule=no-script-tags-in-markdown]").count();
    const line = await page.evaluate(() => {
      const s = (globalThis as any).__porticoEditor;
      const text: string = s.text();
      const at = text.indexOf('"description": "', Math.floor(text.length * 0.9)) + '"description": "'.length;
      s.view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      s.view.focus();
      return s.view.state.doc.lineAt(at).number as number;
    });
    await page.keyboard.type("<script>alert(1)</script> ");
    await page.waitForFunction(() => {
      const s = (globalThis as any).__porticoEditor;
      return s.store.state.problemsVersion === s.store.state.version;
    });
    await expect.poll(() => page.locator(".ed-problem[data-rule=no-script-tags-in-markdown]").count()).toBe(before + 1);
    expect(await page.locator(`.ed-problem[data-rule=no-script-tags-in-markdown][data-line="${line}"]`).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("virtualises the problem table: few rows in the DOM, the keyboard reaches the last problem, selecting it reveals its line", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = collectErrors(page);
    await storeEditorToken(page, PORTAL, token);
    await page.goto(`${baseUrl()}/p/${PORTAL}/editor/many?view=source`);
    const scroller = page.locator(".ed-problems-scroll");
    await expect.poll(() => scroller.getAttribute("data-rows"), { timeout: 60_000 }).toBe("900");
    expect(await page.locator("table[aria-rowcount='901']").count()).toBe(1);
    expect(await page.locator(".ed-problem").count()).toBeLessThan(100);
    const last = await page.evaluate(() => (globalThis as any).__porticoEditor.store.state.problems.at(-1) as { rule: string; line: number });

    // Tab into the list, End: the last problem is rendered, focused and placed.
    await page.locator(".ed-problem").first().focus();
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.index)).toBe("1");
    await page.keyboard.press("End");
    const focused = page.locator(".ed-problem:focus");
    await expect.poll(() => focused.getAttribute("aria-rowindex")).toBe("901");
    expect(Number(await focused.getAttribute("data-line"))).toBe(last.line);
    expect(await page.locator(".ed-problem").count()).toBeLessThan(100);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".cm-lineNumbers .cm-activeLineGutter").innerText()).toBe(String(last.line));

    // Scrolled back to the top by hand, the first rows are there again, and a click selects one.
    await scroller.evaluate((el) => (el.scrollTop = 0));
    const first = page.locator('.ed-problem[data-index="0"]');
    await first.click();
    await expect.poll(() => page.locator(".cm-lineNumbers .cm-activeLineGutter").innerText()).toBe(await first.getAttribute("data-line"));
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
