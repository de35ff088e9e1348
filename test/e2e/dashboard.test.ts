/**
 * @module The dashboard in Debian Chromium (issue 32): axe-core finds no violation on any dashboard page (both
 * themes, phone and desktop widths); a portal made "from a sample" shows its first token in curl and CI snippets that
 * publish; an owner uses the portal pages' forms (with script: sent to /v1 with the session; without: posted to
 * /app and answered by the page) and the member buttons: the brand, logo, gated sections and JWT readers are saved
 * and a refused value says why next to its field; a colleague's role is changed, the last owner's step-down is
 * refused with the message on the page, an invitation is revoked.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardPageTypes } from "../../scripts/lib/page-types.mjs";
import { runAxe, type AxeViolation } from "./axe";
import { baseUrl, collectErrors, launchBrowser } from "./browser";

const ORG = "dash-e2e";
/** A public RSA key (demo/settings/jwks.json's shape) for the JWT form. */
const JWKS = JSON.stringify({ keys: [{ kty: "RSA", kid: "e2e", alg: "RS256", n: "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw", e: "AQAB" }] });
const PORTAL = "dash-e2e-docs";
const OWNER = `owner-${Date.now()}@dash.example`;
let browser: Browser;
/** The owner's cookies, signed in once (each page's context starts from them). */
let ownerState: Awaited<ReturnType<BrowserContext["storageState"]>>;
/** What the new portal's page showed once: its first token and the curl and CI snippets naming it. */
let fresh: { token: string; snippets: string };

/** The newest link mailed to `email` (the dev outbox). */
async function mailedLink(email: string): Promise<string> {
  const list = (await (await fetch(`${baseUrl()}/dev/outbox?to=${encodeURIComponent(email)}&format=json`)).json()) as Array<{ links: string[] }>;
  return list[0]!.links[0]!;
}

/** A browser context signed in as `email` through the magic link (a new writer on first use). */
async function signedIn(email: string, options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  const ask = await fetch(`${baseUrl()}/v1/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) });
  expect(ask.status).toBe(202);
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(await mailedLink(email));
  await page.close();
  return context;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const context = await signedIn(OWNER);
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/app`);
  await page.fill("#f-name", "Dash E2E");
  await page.click("button:has-text('Create organisation')");
  expect(new URL(page.url()).pathname).toBe(`/app/orgs/${ORG}`);
  await page.fill("#f-name", "Dash docs");
  await page.fill("#f-slug", PORTAL);
  await page.click("button:has-text('Create portal')");
  expect(await page.locator(".notice").first().innerText()).toContain("The sample is published");
  fresh = { token: (await page.locator(".fresh-token pre code").first().innerText()).trim(), snippets: await page.locator(".fresh-token").innerText() };
  ownerState = await context.storageState();
  await context.close();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

describe("axe-core on every dashboard page", () => {
  for (const [name, path] of dashboardPageTypes({ org: ORG, portal: PORTAL, api: "parcel-logistics-api", version: "2.4.0" })) {
    it(`finds no violation on the ${name} page, both themes, 390 and 1280 px`, async () => {
      const found: Record<string, AxeViolation[]> = {};
      // One load per width; the theme follows the emulated colour-scheme preference on the loaded page.
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ storageState: ownerState, viewport: { width, height: 900 }, colorScheme: "light", bypassCSP: true });
        const page = await context.newPage();
        const res = await page.goto(baseUrl() + path, { waitUntil: "networkidle" });
        expect(res?.status(), path).toBe(200);
        for (const theme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: theme });
          expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(theme === "dark");
          const violations = await runAxe(page);
          found[`${theme} ${width}`] = violations;
          console.log(`axe ${name.padEnd(16)} ${theme.padEnd(5)} ${String(width).padStart(4)} px: ${violations.length === 0 ? "0 violations" : violations.map((v) => `${v.id} (${v.impact}, ${v.nodes}: ${v.targets.join(" ")})`).join("; ")}`);
        }
        await context.close();
      }
      expect(Object.values(found).flat().map((v) => v.id)).toEqual([]);
    }, 300_000);
  }
});

describe("an owner runs the portal from the dashboard", () => {
  it("starts from the sample and publishes with the fresh token the curl and CI snippets show", async () => {
    expect(fresh.token).toMatch(/^ptk_/);
    expect(fresh.snippets).toContain(`Authorization: Bearer ${fresh.token}`);
    expect(fresh.snippets).toContain("secrets.PORTICO_TOKEN");
    // The curl snippet's request, as written on the page.
    const up = await fetch(`${baseUrl()}/v1/apis/upload?api=my-api`, { method: "POST", headers: { authorization: `Bearer ${fresh.token}`, "content-type": "application/yaml" }, body: "openapi: 3.1.0\ninfo: {title: My API, version: 1.0.0}\npaths: {}\n" });
    expect(up.status).toBe(201);
    const guides = await fetch(`${baseUrl()}/p/${PORTAL}/guides/introduction`);
    expect(guides.status).toBe(200);
  });

  it("saves the brand, gated sections, JWT readers and the logo (with and without script), says why a value is refused, and manages members", async () => {
    const context = await signedIn(OWNER);
    const page: Page = await context.newPage();
    const errors = collectErrors(page);
    const base = `${baseUrl()}/app/orgs/${ORG}/portals/${PORTAL}`;

    await page.goto(`${base}/branding`);
    await page.fill("#f-brand-name", "Dash Docs Brand");
    await Promise.all([page.waitForEvent("load"), page.click("button:has-text('Save brand')")]);
    expect(await page.locator(".facts").innerText()).toContain("Dash Docs Brand");
    await page.fill("#f-brand-primary", "#ffff00");
    await page.click("button:has-text('Save brand')");
    // The script shows the API's refusal next to the colour field, without leaving the page.
    await expect.poll(() => page.locator("#f-brand-primary-error").innerText()).toMatch(/contrast/i);
    expect(await page.locator("#f-brand-primary").getAttribute("aria-invalid")).toBe("true");
    const reader = await (await fetch(`${baseUrl()}/p/${PORTAL}/`)).text();
    expect(reader).toContain("Dash Docs Brand");
    // The logo: a file of the live release (the sample's), offered in the list.
    await page.fill("#f-logo-logoLight", "logo.svg");
    await page.fill("#f-logo-logoDark", "logo-dark.svg");
    await Promise.all([page.waitForEvent("load"), page.click("button:has-text('Save logo')")]);
    expect(await page.locator(".facts").innerText()).toContain("logo.svg");
    expect(await page.locator("img.brand-logo").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // Gated sections with the script: a line without a colon is named before anything is sent; then saved.
    await page.goto(`${base}/access`);
    await page.fill("#f-sections-sections", "/guides/partners partners");
    await page.click("button:has-text('Save sections')");
    await expect.poll(() => page.locator("#f-sections-sections-error").innerText()).toContain("line 1");
    await page.fill("#f-sections-sections", "/guides/partners: partners\nInternal: staff");
    await Promise.all([page.waitForEvent("load"), page.click("button:has-text('Save sections')")]);
    expect(await page.locator("#form-sections .form-status").innerText()).toBe("Saved.");
    expect(await page.locator("#sections table").innerText()).toMatch(/\/guides\/partners\s+partners[\s\S]*Internal\s+staff/);

    // JWT readers without script: the form posts, the server answers the page with the error beside the field.
    const noScript = await browser.newContext({ storageState: await context.storageState(), javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${base}/access`);
    await plain.fill("#f-jwt-issuer", "https://auth.dash.example/");
    await plain.fill("#f-jwt-keys", "{not json");
    await plain.click("button:has-text('Save JWT settings')");
    expect(await plain.locator("#f-jwt-keys-error").innerText()).toContain("not valid JSON");
    expect(await plain.inputValue("#f-jwt-issuer")).toBe("https://auth.dash.example/");
    await plain.fill("#f-jwt-keys", JWKS);
    await plain.click("button:has-text('Save JWT settings')");
    expect(new URL(plain.url()).search).toBe("?saved=jwt");
    expect(await plain.locator("#form-jwt .form-status").innerText()).toBe("Saved.");
    expect(await plain.locator(".facts").innerText()).toMatch(/issuer https:\/\/auth\.dash\.example\/.*1 public key \(JWKS\)/);
    await noScript.close();

    // A colleague accepts an invitation; the owner makes them admin, then tries to step down as the last owner.
    const colleague = `colleague-${Date.now()}@dash.example`;
    await page.goto(`${baseUrl()}/app/orgs/${ORG}#members`);
    await page.fill("#members #f-email", colleague);
    await page.selectOption("#f-role", "editor");
    await page.click("button:has-text('Send invitation')");
    const other = await browser.newContext();
    await (await other.newPage()).goto(await mailedLink(colleague));
    await other.close();
    await page.goto(`${baseUrl()}/app/orgs/${ORG}`);
    await page.selectOption(`select[aria-label="Role of ${colleague}"]`, "admin");
    await page.locator("tr", { hasText: colleague }).locator("button:has-text('Change role')").click();
    expect(await page.locator("tr", { hasText: colleague }).locator("td").nth(1).innerText()).toBe("admin");
    await page.selectOption(`select[aria-label="Role of ${OWNER}"]`, "viewer");
    await page.locator("tr", { hasText: OWNER }).locator("button:has-text('Change role')").click();
    expect(await page.locator("#member-notice").innerText()).toContain("last owner cannot step down");

    // An invitation revoked from its row.
    const invited = `invited-${Date.now()}@dash.example`;
    await page.fill("#members #f-email", invited);
    await page.click("button:has-text('Send invitation')");
    await page.click(`button[aria-label="Revoke the invitation of ${invited}"]`);
    expect(await page.locator("#members").innerText()).not.toContain(invited);

    // The refused forms answered 400/409 on purpose; nothing else failed.
    expect(errors.filter((e) => !/status of (400|409|422)/.test(e))).toEqual([]);
    await context.close();
  }, 120_000);
});
