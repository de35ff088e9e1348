/**
 * @module Browser test of a gated section: a signed-out reader opening the demo's partners guide is sent to sign in,
 * signs in with the shared password, lands back on the guide, and signs out from the top bar.
 */
import { describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "readers-demo";
const PASSWORD = "partners-e2e-password";

const demo = demoSuite(PORTAL, async (token) => {
  const patch = await fetch(`${baseUrl()}/v1/portal`, {
    method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ access: { password: PASSWORD, passwordAudiences: ["partners"] } }),
  });
  if (patch.status !== 200) throw new Error(`access: ${patch.status} ${await patch.text()}`);
});

describe("readers in Chromium", () => {
  it("signs in with the password, lands back on the gated page, and signs out", async () => {
    const context = await demo.browser.newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    const guide = `${baseUrl()}/p/${PORTAL}/guides/partners/volume-pricing`;
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/introduction`, { waitUntil: "networkidle" });
    expect(await page.locator(".cnav").textContent()).not.toContain("Partner volume pricing");

    await page.goto(guide, { waitUntil: "networkidle" });
    expect(new URL(page.url()).pathname).toBe(`/p/${PORTAL}/auth/signin`);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("alert").textContent()).toContain("not right");

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(guide);
    expect(await page.locator("h1").textContent()).toBe("Partner volume pricing");
    expect(await page.locator(".cnav").textContent()).toContain("Partner volume pricing");
    const cookie = (await context.cookies()).find((c) => c.name === "portico_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    expect(cookie.path).toBe(`/p/${PORTAL}/`);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${baseUrl()}/p/${PORTAL}/`);
    expect((await context.cookies()).some((c) => c.name === "portico_session")).toBe(false);
    await page.goto(guide, { waitUntil: "networkidle" });
    expect(new URL(page.url()).pathname).toBe(`/p/${PORTAL}/auth/signin`);
    // The failed sign-in answers 401, which the browser logs as a failed resource; nothing else may fail.
    expect(errors.filter((e) => !e.includes("401"))).toEqual([]);
    await context.close();
  });
});
