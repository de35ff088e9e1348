/**
 * @module Keyboard-only use of the shell's controls in Chromium (issue 33): search (Tab order from the top, arrow
 * keys, Escape, Enter; Ctrl-K's dialog and focus given back), Authorize (Enter opens, Escape closes and gives focus
 * back to it, Enter submits a key) and Try it (reached by Tab, Enter opens with focus in its form, Escape closes and
 * gives focus back to the button). No pointer event and no `focus()` call: keys only, from the top of the page.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, demoSuite } from "./browser";

const PORTAL = "keyboard";
const OPERATION = "reference/parcel-logistics-api/2.4.0/createshipment";

const demo = demoSuite(PORTAL);

/** The focused element, as a short description: its tag, class and accessible text. */
const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return "body";
  const name = el.getAttribute("aria-label") ?? (el.textContent ?? "").replace(/\s+/g, " ").trim();
  return `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(" ")[0]}` : ""} ${name}`.trim();
});

/** Presses Tab until `selector` has focus (at most `max` times); returns what had focus on the way, in order. */
async function tabTo(page: Page, selector: string, max = 400): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return seen;
    seen.push(await focused(page));
  }
  throw new Error(`${selector} never took focus in ${max} Tabs; focus went through ${seen.slice(0, 40).join(" | ")}`);
}

async function openPage(path: string): Promise<Page> {
  const page = await demo.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${baseUrl()}/p/${PORTAL}/${path}`, { waitUntil: "networkidle" });
  return page;
}

describe("keyboard only", () => {
  it("search: Tab reaches the box after the skip link, the logo and the tabs; arrows, Escape and Enter work", async () => {
    const page = await openPage("guides/tracking");
    const before = await tabTo(page, ".sb-input");
    const tabs = await page.$$eval("header nav[aria-label=Sections] a", (as) => as.map((a) => `a ${a.textContent!.trim()}`));
    expect(before).toEqual(["a.skip Skip to content", "a.brand Parcel Logistics Docs", ...tabs]);
    await page.keyboard.type("shipment");
    await page.locator("#sb-list li").first().waitFor();
    const input = page.locator(".sb-input");
    await page.keyboard.press("ArrowDown");
    expect(await input.getAttribute("aria-activedescendant")).toBe("sb-list-0");
    await page.keyboard.press("ArrowDown");
    expect(await input.getAttribute("aria-activedescendant")).toBe("sb-list-1");
    // Escape closes the list and leaves the reader in the box.
    await page.keyboard.press("Escape");
    expect(await input.getAttribute("aria-expanded")).toBe("false");
    expect(await focused(page)).toMatch(/^input\.sb-input/);
    // Typing opens the list again; Enter on the chosen result opens it.
    await page.keyboard.type("s");
    await page.locator("#sb-list li").first().waitFor();
    await page.keyboard.press("ArrowDown");
    const target = await page.locator("#sb-list li").first().locator("a").getAttribute("href");
    await Promise.all([page.waitForURL((u) => !u.pathname.endsWith("/guides/tracking")), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe(new URL(target!, baseUrl()).pathname);
    await page.close();
  });

  it("search: Ctrl-K opens the quick switcher from anywhere, Escape closes it and focus goes back where it was", async () => {
    const page = await openPage("guides/tracking");
    await tabTo(page, "a.brand");
    await page.keyboard.press("Control+k");
    await page.locator("dialog.qs[open]").waitFor();
    expect(await focused(page)).toMatch(/^input\.qs-input/);
    await page.keyboard.type("label");
    await page.locator("#qs-list li").first().waitFor();
    await page.keyboard.press("Escape");
    await page.locator("dialog.qs[open]").waitFor({ state: "detached" }).catch(() => page.locator("dialog.qs").waitFor({ state: "hidden" }));
    // The island gives focus back in an effect after its state changes (client/islands/search-box.tsx), which can
    // run after the dialog's `open` attribute is gone: wait for it rather than read focus at once.
    await expect.poll(() => focused(page), { timeout: 2000 }).toBe("a.brand Parcel Logistics Docs");
    await page.close();
  });

  it("Authorize: Tab reaches it after search; Enter opens, Escape closes with focus back; Enter submits a key", async () => {
    const page = await openPage(OPERATION);
    await tabTo(page, ".sb-input");
    await tabTo(page, ".authz > summary", 5);
    await page.keyboard.press("Enter");
    expect(await page.locator("details.authz").getAttribute("open")).not.toBeNull();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toMatch(/^input/);
    await page.keyboard.press("Escape");
    expect(await page.locator("details.authz").getAttribute("open")).toBeNull();
    expect(await focused(page)).toBe("summary Authorize");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.type("pl_test_keyboard1234");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(await page.locator(".authz > summary").textContent()).toBe("Authorized");
    await page.close();
  });

  it("Try it: reached by Tab, Enter opens it with focus in its form, Escape closes it and focus returns to the button", async () => {
    const page = await openPage(OPERATION);
    await tabTo(page, ".try-open");
    await page.keyboard.press("Enter");
    await page.locator(".try-form").waitFor();
    await page.waitForFunction(() => !!document.activeElement?.closest(".try-form"));
    const inForm = await focused(page);
    // Tab moves on inside the form; Shift-Tab comes back.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest(".try"))).toBe(true);
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toBe(inForm);
    await page.keyboard.press("Escape");
    await page.locator(".try-form").waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.classList.contains("try-open"), undefined, { timeout: 2000 }).catch(() => undefined);
    expect(await focused(page)).toBe("button.try-open Try it");
    // Open again, Tab back to the panel's Close button, Enter: closed, focus on Try it again.
    await page.keyboard.press("Enter");
    await page.locator(".try-form").waitFor();
    await page.waitForFunction(() => !!document.activeElement?.closest(".try-form"));
    for (let i = 0; i < 5 && !(await focused(page)).startsWith("button.try-link Close"); i++) await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toBe("button.try-link Close");
    await page.keyboard.press("Enter");
    await page.locator(".try-form").waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.classList.contains("try-open"), undefined, { timeout: 2000 }).catch(() => undefined);
    expect(await focused(page)).toBe("button.try-open Try it");
    await page.close();
  });
});
