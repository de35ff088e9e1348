/**
 * @module A portal on its custom domain in Chromium: `e2e-domain.localhost` (every *.localhost name is this machine)
 * registered for the demo portal through `PUT /v1/portal/domain`; the /p/ URL redirects there, pages, search and
 * the gated section work at the host's root, and the session cookie belongs to that host alone.
 */
import { describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "domain-demo";
const HOSTNAME = "e2e-domain.localhost";
const PASSWORD = "partners-e2e-domain";
let site = "";

const demo = demoSuite(PORTAL, async (token) => {
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const patch = await fetch(`${baseUrl()}/v1/portal`, { method: "PATCH", headers: auth, body: JSON.stringify({ access: { password: PASSWORD, passwordAudiences: ["partners"] } }) });
  if (patch.status !== 200) throw new Error(`access: ${patch.status} ${await patch.text()}`);
  const put = await fetch(`${baseUrl()}/v1/portal/domain`, { method: "PUT", headers: auth, body: JSON.stringify({ hostname: HOSTNAME }) });
  if (put.status !== 200) throw new Error(`domain: ${put.status} ${await put.text()}`);
  site = ((await put.json()) as { domain: { url: string } }).domain.url.replace(/\/$/, "");
});

describe("a portal on its custom domain, in Chromium", () => {
  it("redirects the /p/ URL, serves guides and search at the host's root, signs in with a cookie of that host only", async () => {
    expect(site).toBe(`http://${HOSTNAME}:${new URL(baseUrl()).port}`);
    const context = await demo.browser.newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);

    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/introduction`, { waitUntil: "networkidle" });
    expect(page.url()).toBe(`${site}/guides/introduction`);
    expect(await page.locator("h1").textContent()).toBe("Introduction");
    // Styles and islands load from the custom host; no link leads back to /p/.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("header")!).display)).not.toBe("inline");
    expect(await page.locator('a[href*="/p/"]').count()).toBe(0);

    // The top bar's search calls /search.json on the custom host; its results link there, without /p/.
    await page.locator("input.sb-input").fill("cancel shipment");
    await page.locator("#sb-list [role=option]").first().waitFor({ timeout: 15_000 });
    const hrefs = await page.locator("#sb-list [role=option] a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href.startsWith("/") && !href.startsWith("/p/"), href).toBe(true);

    await page.goto(`${site}/guides/partners/volume-pricing`, { waitUntil: "networkidle" });
    expect(page.url()).toBe(`${site}/auth/signin?return=%2Fguides%2Fpartners%2Fvolume-pricing`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${site}/guides/partners/volume-pricing`);
    expect(await page.locator("h1").textContent()).toBe("Partner volume pricing");

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "portico_session")!;
    expect({ domain: session.domain, path: session.path, httpOnly: session.httpOnly, sameSite: session.sameSite }).toEqual({ domain: HOSTNAME, path: "/", httpOnly: true, sameSite: "Lax" });
    // Host-only: the browser sends it to the custom host and nowhere else.
    expect(await context.cookies(`${baseUrl()}/p/${PORTAL}/`)).toEqual([]);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${site}/`);
    expect((await context.cookies()).some((c) => c.name === "portico_session")).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
