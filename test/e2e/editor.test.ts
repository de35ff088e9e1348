/**
 * @module Browser tests of the API editor (issue 4) in Debian Chromium against `wrangler dev`: problems while
 * typing, operation-operationId after deleting an operationId, selecting a problem, Visual → Source write-back,
 * YAML ⇄ JSON, Swagger 2.0, and save → new live version.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, createPortal, holdEditorBundle, launchBrowser, publish, storeEditorToken } from "./browser";

const DEMO = readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8");
const SWAGGER = readFileSync(new URL("../fixtures/petstore-v2.yaml", import.meta.url), "utf8");
const PORTAL = "editor-e2e";
/** The demo definition with a hostile first line: the early Source view must show it as text. */
const HOSTILE_FIRST = `# </pre><img src=x onerror="globalThis.__xss=1"><b id=injected>bold</b> &amp; <script>globalThis.__xss=2</script>`;

let browser: Browser;
let token: string;

beforeAll(async () => {
  token = await createPortal(PORTAL);
  await publish(token, DEMO, { api: "parcels" });
  await publish(token, SWAGGER, { api: "petstore-v2" });
  await publish(token, `${HOSTILE_FIRST}\n${DEMO}`, { api: "early" });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens the editor signed in (token in sessionStorage, as the sign-in form leaves it) in the given view. */
async function openEditor(api: string, view: "source" | "visual" | "split" = "source"): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectErrors(page);
  await storeEditorToken(page, PORTAL, token);
  await page.goto(`${baseUrl()}/p/${PORTAL}/editor/${api}?view=${view}`);
  await page.waitForSelector(".cm-content", { state: "attached" });
  await waitForLint(page);
  return { page, errors };
}

/** Waits until the problems shown are those of the current text. */
async function waitForLint(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const s = (globalThis as any).__porticoEditor;
    return s && s.store.state.problemsVersion === s.store.state.version;
  });
}

/** Puts the Source cursor at the start of the first line containing `needle` and returns that line's number. */
async function cursorToLine(page: Page, needle: string): Promise<number> {
  return page.evaluate((n) => {
    const s = (globalThis as any).__porticoEditor;
    const text: string = s.text();
    const at = text.indexOf(n);
    if (at < 0) throw new Error(`not in the text: ${n}`);
    const line = s.view.state.doc.lineAt(at);
    s.view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
    s.view.focus();
    return line.number;
  }, needle);
}

/** The 1-based line of the Source cursor, read from the active line's gutter number. */
async function activeLine(page: Page): Promise<number> {
  return Number(await page.locator(".cm-lineNumbers .cm-activeLineGutter").innerText());
}

describe("API editor", () => {
  it("signs in with the portal token and lists the portal's APIs", async () => {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${baseUrl()}/p/${PORTAL}/editor/`);
    await page.fill("input[name=token]", "wrong-token");
    await page.click("button[type=submit]");
    await expect.poll(() => page.locator("[role=alert]").innerText()).toContain("not accepted");
    await page.fill("input[name=token]", token);
    await page.click("button[type=submit]");
    await page.waitForSelector(".ed-api-list");
    expect(await page.locator(".ed-api-list a").allInnerTexts()).toEqual(expect.arrayContaining(["Parcel Logistics API"]));
    expect(await page.evaluate((p) => sessionStorage.getItem(`portico:token:${p}`), PORTAL)).toBe(token);
    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
    await page.close();
  });

  it("paints the definition's first part before the editor bundle runs, escaped, then CodeMirror replaces it in place", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = collectErrors(page);
    // The editor bundle is held back until the early view has been looked at (and scrolled).
    const release = await holdEditorBundle(page, PORTAL, token);
    await page.goto(`${baseUrl()}/p/${PORTAL}/editor/early?view=source`);
    const early = page.locator("[data-early-source]");
    await early.waitFor();
    // The first line, as text: no element from it, nothing run.
    expect((await page.locator(".ed-early-text").innerText()).split("\n")[0]).toBe(HOSTILE_FIRST);
    expect(await page.locator("#injected, img, .ed-early script").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).__xss)).toBeUndefined();
    expect(await page.locator(".cm-editor").count()).toBe(0);
    // Line numbers beside the text.
    expect((await page.locator(".ed-early-numbers").textContent())!.split("\n").slice(0, 3)).toEqual(["1", "2", "3"]);
    // Scrolled down 30 lines and a bit; where line 41's first character is on screen.
    const before = await page.evaluate(() => {
      const view = document.querySelector<HTMLElement>("[data-early-source]")!;
      const lineHeight = parseFloat(getComputedStyle(view.querySelector(".ed-early-text")!).lineHeight);
      view.scrollTop = Math.round(30 * lineHeight + 7);
      // Line 41 starts after the 39th newline of the text after the first line.
      const tail = view.querySelector(".ed-early-text")!.lastChild as Text;
      let at = 0;
      for (let i = 0; i < 39; i++) at = tail.data.indexOf("\n", at) + 1;
      const range = document.createRange();
      range.setStart(tail, at);
      range.setEnd(tail, at + 1);
      const r = range.getBoundingClientRect();
      return { left: r.left, top: r.top, scrollTop: view.scrollTop };
    });
    // Every frame from here on shows the text, in the early view or in CodeMirror (no blank or "Loading…" frame).
    await page.evaluate(() => {
      const frames: boolean[] = ((globalThis as any).__frames = []);
      const tick = () => {
        const cm = document.querySelector(".cm-content .cm-line");
        frames.push(!!(cm || document.querySelector("[data-early-source] .ed-early-text")));
        if (!cm) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    release();
    await page.waitForSelector(".cm-content");
    await page.waitForFunction(() => (globalThis as any).__frames.length > 0 && (globalThis as any).__frames.at(-1));
    expect(await page.evaluate(() => (globalThis as any).__frames.every(Boolean))).toBe(true);
    // Replaced, at the same place: line 41's first character where it was (no layout jump, scroll kept).
    expect(await early.count()).toBe(0);
    const after = await page.evaluate(() => {
      const s = (globalThis as any).__porticoEditor;
      const c = s.view.coordsAtPos(s.view.state.doc.line(41).from);
      return { left: c.left, top: c.top, first: s.view.state.doc.line(1).text };
    });
    expect(after.first).toBe(HOSTILE_FIRST);
    expect(Math.abs(after.left - before.left)).toBeLessThanOrEqual(1);
    expect(Math.abs(after.top - before.top)).toBeLessThanOrEqual(1);
    await waitForLint(page);
    expect(await page.evaluate(() => (globalThis as any).__xss)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a problem for a broken line as it is typed, inline and in the panel", async () => {
    const { page, errors } = await openEditor("parcels");
    expect(await page.locator(".ed-problem[data-rule=parser]").count()).toBe(0);
    const line = await cursorToLine(page, "  summary: Ship, track and label parcels");
    await page.keyboard.type("  broken: a: b");
    await page.keyboard.press("Enter");
    await waitForLint(page);
    const row = page.locator(".ed-problem[data-rule=parser]").first();
    await row.waitFor();
    expect(Number(await row.getAttribute("data-line"))).toBe(line);
    expect(await page.locator(".cm-lintRange-error").count()).toBeGreaterThan(0);
    expect(await page.locator(".cm-gutter-lint .cm-lint-marker-error").count()).toBeGreaterThan(0);
    // Undo removes the problem again.
    for (let i = 0; i < 5 && (await page.evaluate(() => (globalThis as any).__porticoEditor.text())) !== DEMO; i++) await page.keyboard.press("Control+z");
    await waitForLint(page);
    await expect.poll(() => page.locator(".ed-problem[data-rule=parser]").count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("folds and searches in the Source view", async () => {
    const { page, errors } = await openEditor("parcels");
    await page.locator(".cm-foldGutter [title='Fold line']").first().click();
    await expect.poll(() => page.locator(".cm-foldPlaceholder").count()).toBe(1);
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+f");
    const search = page.locator(".cm-search input[name=search]");
    await search.waitFor();
    // The search panel reads its query on key up, so type rather than fill.
    await search.focus();
    await page.keyboard.type("webhook-subscriptions");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => {
        const { state } = (globalThis as any).__porticoEditor.view;
        return state.sliceDoc(state.selection.main.from, state.selection.main.to);
      }))
      .toBe("webhook-subscriptions");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("reports operation-operationId when an operationId is deleted, and selecting it lands on its line", async () => {
    const { page, errors } = await openEditor("parcels");
    expect(await page.locator(".ed-problem[data-rule=operation-operationId]").count()).toBe(0);
    const idLine = await cursorToLine(page, "      operationId: listShipments");
    await page.keyboard.press("Shift+End");
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Delete");
    await waitForLint(page);
    const row = page.locator(".ed-problem[data-rule=operation-operationId]");
    await expect.poll(() => row.count()).toBe(1);
    const problemLine = Number(await row.getAttribute("data-line"));
    // Spectral reports a missing operationId on the operation itself: the `get:` line just above.
    expect(problemLine).toBe(idLine - 1);
    await cursorToLine(page, "openapi: 3.1.0");
    expect(await activeLine(page)).not.toBe(problemLine);
    await row.click();
    expect(await activeLine(page)).toBe(problemLine);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("moves to the field of a selected problem in the Visual view, with a badge on it", async () => {
    const { page } = await openEditor("parcels", "visual");
    await page.evaluate(() => {
      const s = (globalThis as any).__porticoEditor;
      const text: string = s.text();
      // The operation's own line (links elsewhere name getShipment with deeper indentation).
      const line = "\n      operationId: getShipment\n";
      const at = text.indexOf(line);
      s.view.dispatch({ changes: { from: at, to: at + line.length - 1, insert: "" } });
    });
    await waitForLint(page);
    await page.locator(".ed-problem[data-rule=operation-operationId]").click();
    const field = page.locator('[data-pointer="/paths/~1shipments~1{shipmentId}/get/operationId"]');
    await field.waitFor();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator(".ed-badge[data-rules~=operation-operationId]").count()).toBe(1);

    // A problem deep in a schema opens the collapsed tree down to its field.
    await page.evaluate(() => {
      const s = (globalThis as any).__porticoEditor;
      const at = s.text().indexOf("enum: [country, region, city, site]");
      s.view.dispatch({ changes: { from: at, to: at + "enum: [country, region, city, site]".length, insert: "enum: [country, region, city, city]" } });
    });
    await waitForLint(page);
    await page.locator(".ed-problem[data-rule=duplicated-entry-in-enum]").click();
    const enumField = page.locator('[data-pointer="/components/schemas/Location/properties/kind/enum"]');
    await enumField.waitFor();
    await expect.poll(() => enumField.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.close();
  });

  it("writes a summary edited in the Visual view into the Source, keeping comments and key order", async () => {
    const { page, errors } = await openEditor("parcels", "split");
    await page.click('[data-entry="/paths/~1shipments/get"]');
    const summary = page.locator('[data-pointer="/paths/~1shipments/get/summary"]');
    await summary.waitFor();
    expect(await summary.inputValue()).toBe("List shipments");
    await summary.fill("List every shipment");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toContain("      summary: List every shipment\n");
    // Split view follows the focused field: the edited line is on screen in the Source view.
    await expect.poll(() => page.locator(".cm-content").innerText()).toContain("summary: List every shipment");
    const text: string = await page.evaluate(() => (globalThis as any).__porticoEditor.text());
    expect(text).toBe(DEMO.replace("      summary: List shipments\n", "      summary: List every shipment\n"));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("adds an operation and a schema from the Visual view, written into the Source", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.selectOption("[aria-label='Method of the new operation']", "post");
    await page.fill("[aria-label='Path of the new operation']", "/returns");
    await page.click(".ed-add button:text-is('Add')");
    const summary = page.locator('[data-pointer="/paths/~1returns/post/summary"]');
    await summary.waitFor();
    expect(await summary.inputValue()).toBe("New operation");
    const text: string = await page.evaluate(() => (globalThis as any).__porticoEditor.text());
    expect(text).toContain("  /returns:\n    post:\n      summary: New operation\n      operationId: postReturns\n      responses:\n        \"200\":\n          description: OK\nwebhooks:\n");
    await page.fill("[aria-label='Name of the new schema']", "ReturnRequest");
    await page.click("text=Add schema");
    await page.locator('[data-pointer="/components/schemas/ReturnRequest"]').waitFor();
    expect(await page.evaluate(() => (globalThis as any).__porticoEditor.text())).toMatch(/ {4}ReturnRequest:\n {6}type: object\n {6}properties: \{\}\n$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("edits security schemes in the Visual view (OAuth 2.0 flow URL and scopes, bearer format, a new scheme), keeping comments and order", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/components/securitySchemes"]');
    const tokenUrl = page.locator('[data-pointer="/components/securitySchemes/oauth2/flows/clientCredentials/tokenUrl"]');
    await tokenUrl.waitFor();
    await tokenUrl.fill("https://auth.parcel-logistics.example/oauth2/token");
    await page.fill('[aria-label="New scope of /components/securitySchemes/oauth2/flows/clientCredentials/scopes"]', "rates:read");
    await page.click("[data-flow=clientCredentials] button:text-is('Add scope')");
    await page.locator('[data-pointer="/components/securitySchemes/oauth2/flows/clientCredentials/scopes/rates:read"]').waitFor();
    await page.fill('[data-pointer="/components/securitySchemes/bearerAuth/bearerFormat"]', "PASETO");
    await page.fill("[aria-label='Name of the new security scheme']", "partnerKey");
    await page.click("text=Add security scheme");
    const name = page.locator('[data-pointer="/components/securitySchemes/partnerKey/name"]');
    await name.waitFor();
    await name.fill("X-Partner-Key");
    await page.selectOption('[data-pointer="/components/securitySchemes/partnerKey/in"]', "query");
    const expected = DEMO.replace(
      "        clientCredentials:\n          tokenUrl: https://auth.parcel-logistics.example/oauth/token\n",
      "        clientCredentials:\n          tokenUrl: https://auth.parcel-logistics.example/oauth2/token\n",
    )
      .replace("            tracking:write: Record tracking events (carrier partners)\n", "            tracking:write: Record tracking events (carrier partners)\n            rates:read: Describe this scope\n")
      .replace("      bearerFormat: JWT\n", "      bearerFormat: PASETO\n")
      .replace(
        "      description: Account API key for scripts. Keys carry the scopes chosen when they were created.\n",
        "      description: Account API key for scripts. Keys carry the scopes chosen when they were created.\n    partnerKey:\n      type: apiKey\n      name: X-Partner-Key\n      in: query\n",
      );
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("edits an operation's security requirements in the Visual view", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/paths/~1shipments/get"]');
    const scopes = page.locator('[data-pointer="/paths/~1shipments/get/security/0/oauth2"]');
    await scopes.waitFor();
    expect(await scopes.inputValue()).toBe("shipments:read");
    await scopes.fill("shipments:read, labels:write");
    await scopes.press("Enter");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).not.toBe(DEMO);
    await page.click("[data-requirement='1'] button:text-is('Remove requirement')");
    await expect.poll(() => page.locator("[data-requirement]").count()).toBe(2);
    const text: string = await page.evaluate(() => (globalThis as any).__porticoEditor.text());
    const block = (t: string) => t.slice(t.indexOf("      tags: [Shipments]\n      security:\n"), t.indexOf("      parameters:\n        - $ref: '#/components/parameters/Limit'"));
    expect(block(text)).toBe("      tags: [Shipments]\n      security:\n        - oauth2: [shipments:read, labels:write]\n        - apiKey: []\n");
    expect(text.replace(block(text), "")).toBe(DEMO.replace(block(DEMO), ""));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("edits numeric and string constraints, enum and deprecated of a schema in the Visual view", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/components/schemas/CountryCode"]');
    const maxLength = page.locator('[data-pointer="/components/schemas/CountryCode/maxLength"]');
    await maxLength.waitFor();
    await maxLength.fill("2");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toContain("      maxLength: 2\n");
    await page.locator('[data-pointer="/components/schemas/CountryCode/minLength"]').fill("2");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toContain("      minLength: 2\n");
    const enumField = page.locator('[data-pointer="/components/schemas/CountryCode/enum"]');
    await enumField.fill("NL, US, DE");
    await enumField.press("Enter");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toContain("        - DE\n");
    await page.locator('[data-pointer="/components/schemas/CountryCode/deprecated"]').check();
    const expected = DEMO.replace("      examples: [NL, US]\n    Money:\n", "      examples: [NL, US]\n      maxLength: 2\n      minLength: 2\n      enum:\n        - NL\n        - US\n        - DE\n      deprecated: true\n    Money:\n");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected);
    // A number field writes numbers: changing it rewrites the scalar in place.
    await maxLength.fill("3");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected.replace("      maxLength: 2\n", "      maxLength: 3\n"));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("adds and edits a server variable in the Visual view", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/servers"]');
    await page.fill('[aria-label="New variable of /servers/1"]', "region");
    await page.locator("fieldset.ed-item").nth(1).locator("button:text-is('Add variable')").click();
    const def = page.locator('[data-pointer="/servers/1/variables/region/default"]');
    await def.waitFor();
    // The new variable's default was written as "" (a plain scalar cannot be empty): its quotes stay.
    await def.fill("eu");
    await page.fill('[data-pointer="/servers/1/variables/region/enum"]', "eu, us");
    await page.press('[data-pointer="/servers/1/variables/region/enum"]', "Enter");
    const expected = DEMO.replace("      basePath:\n        enum: [v2, v1]\n        default: v2\nsecurity:\n", "      basePath:\n        enum: [v2, v1]\n        default: v2\n      region:\n        default: \"eu\"\n        enum:\n          - eu\n          - us\nsecurity:\n");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("edits named examples of a request body in the Visual view (summary, a new example with a JSON value)", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/paths/~1shipments/post"]');
    const media = "/paths/~1shipments/post/requestBody/content/application~1json";
    const summary = page.locator(`[data-pointer="${media}/examples/domestic/summary"]`);
    await summary.waitFor();
    await summary.fill("Domestic shipment, one parcel");
    await page.fill(`[aria-label="Name of a new example of ${media}"]`, "minimal");
    await page.click(`[data-examples="${media}"] button:text-is('Add example')`);
    const value = page.locator(`[data-pointer="${media}/examples/minimal/value"]`);
    await value.waitFor();
    await value.fill('{"serviceCode": "std-eu", "parcels": [{"weight": {"value": 1, "unit": "kg"}}]}');
    await value.press("Tab");
    const expected = DEMO.replace("                summary: Domestic shipment with one parcel\n", "                summary: Domestic shipment, one parcel\n").replace(
      "                        originCountry: PT\n      callbacks:\n",
      "                        originCountry: PT\n              minimal:\n                summary: Describe this example\n                value:\n                  serviceCode: std-eu\n                  parcels:\n                    - weight:\n                        value: 1\n                        unit: kg\n      callbacks:\n",
    );
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected);
    // The new example lacks the schema's required fields: the problem shows on its value field.
    await waitForLint(page);
    await expect.poll(() => page.locator("[data-example=minimal] .ed-badge[data-rules~=oas3-valid-media-example]").count()).toBe(1);
    // JSON that does not parse is not written, and says why.
    await value.fill("{not json");
    await value.press("Tab");
    await expect.poll(() => page.locator(`[data-example=minimal] [role=alert]`).innerText()).toContain("Not JSON");
    expect(await page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens an operation's callback in its own form and adds a callback from the Visual view", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/paths/~1shipments/post"]');
    await page.click("[data-callback=statusChanged] button:text-is('Open POST')");
    const cbSummary = page.locator('[data-pointer="/paths/~1shipments/post/callbacks/statusChanged/{$request.body#~1callbackUrl}/post/summary"]');
    await cbSummary.waitFor();
    expect(await cbSummary.inputValue()).toBe("Shipment status changed");
    await cbSummary.fill("Shipment status has changed");
    expect(await page.locator('[data-entry="/paths/~1shipments/post/callbacks/statusChanged/{$request.body#~1callbackUrl}/post"]').count()).toBe(1);
    await page.click('[data-entry="/paths/~1shipments/post"]');
    await page.fill('[aria-label="Name of a new callback of /paths/~1shipments/post/callbacks"]', "cancelled");
    await page.click("button:text-is('Add callback')");
    await page.locator("[data-callback=cancelled]").waitFor();
    const expected = DEMO.replace("              summary: Shipment status changed\n", "              summary: Shipment status has changed\n").replace(
      "                  description: The endpoint is gone; no further callbacks are sent for this shipment.\n",
      "                  description: The endpoint is gone; no further callbacks are sent for this shipment.\n        cancelled:\n          \"{$request.body#/callbackUrl}\":\n            post:\n              summary: Describe this callback\n              responses:\n                \"200\":\n                  description: OK\n",
    );
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toBe(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("converts YAML to JSON and back in one click each", async () => {
    const { page } = await openEditor("parcels");
    await page.click("text=Convert to JSON");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text().trimStart().startsWith("{"))).toBe(true);
    const json = JSON.parse(await page.evaluate(() => (globalThis as any).__porticoEditor.text()));
    expect(json.info.title).toBe("Parcel Logistics API");
    expect(Object.keys(json.paths).slice(0, 2)).toEqual(["/shipments", "/shipments/{shipmentId}"]);
    await expect.poll(() => page.locator("[role=status]").allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining("Converted to JSON. 2 comment lines were dropped")]));
    await page.click("text=Convert to YAML");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text().startsWith("openapi: 3.1.0\n"))).toBe(true);
    await waitForLint(page);
    expect(await page.locator(".ed-problem[data-rule=parser]").count()).toBe(0);
    await page.close();
  });

  it("opens a Swagger 2.0 definition with host and schemes in the Visual view", async () => {
    const { page, errors } = await openEditor("petstore-v2", "visual");
    await page.click('[data-entry="/host"]');
    const host = page.locator('[data-pointer="/host"]');
    await host.waitFor();
    expect(await host.inputValue()).toBe("petstore.swagger.io");
    expect(await page.locator('[data-entry^="/definitions/"]').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("saves a new version that is then live", async () => {
    const { page, errors } = await openEditor("parcels", "visual");
    await page.click('[data-entry="/info"]');
    const title = page.locator('[data-pointer="/info/version"]');
    await title.waitFor();
    await title.fill("2.5.0");
    await expect.poll(() => page.evaluate(() => (globalThis as any).__porticoEditor.text())).toContain("  version: 2.5.0\n");
    expect(await page.locator("[data-dirty]").count()).toBe(1);
    await page.click("text=Save and publish");
    const status = page.locator(".ed-notice[role=status]");
    await expect.poll(() => status.innerText(), { timeout: 60_000 }).toMatch(/^Published version /);
    expect(await page.locator("[data-dirty]").count()).toBe(0);
    const label = /Published version (\S+)\./.exec(await status.innerText())![1];
    const apis = (await (await fetch(`${baseUrl()}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as { apis: { slug: string; liveVersion: string }[] };
    expect(apis.apis.find((a) => a.slug === "parcels")?.liveVersion).toBe(label);
    const live = await (await fetch(`${baseUrl()}/v1/apis/parcels/definition`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(live).toBe(DEMO.replace("  version: 2.4.0\n", "  version: 2.5.0\n"));
    expect(errors).toEqual([]);
    // The link to the published version opens its reference.
    await page.click(".ed-published");
    await page.waitForLoadState();
    expect(await page.content()).toContain("Parcel Logistics API");
    await page.close();
  });
});
