/**
 * The dashboard (`/app`, issue 32): sign-in page to organisation and portal pages, forms validated by the service
 * API with the message next to the field, "start from a sample", a fresh token shown once with curl and CI snippets,
 * controls hidden from roles without them, and the trial-ended notice.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { asAdmin, lastMail, ownerWithPortal, signIn, follow } from "../harness/workspace";

function formPost(cookie: string | undefined, path: string, fields: Record<string, string | string[]>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...(cookie ? { cookie } : {}) }, body: body.toString() });
}
const get = (cookie: string | undefined, path: string) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });

describe("/app", () => {
  it("sends a signed-out writer to sign in; the form mails a link the outbox shows", async () => {
    const home = await get(undefined, "/app");
    expect(home.status).toBe(303);
    expect(home.headers.get("location")).toBe("/app/signin");
    const bad = await formPost(undefined, "/app/signin", { email: "not-an-email" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toMatch(/id="f-email-error"[^>]*>email must be an e-mail address/);
    const sent = await formPost(undefined, "/app/signin", { email: "dash1@example.com" });
    expect(await sent.text()).toContain("/dev/outbox?to=dash1%40example.com");
    const { cookie } = await follow((await lastMail("dash1@example.com")).links[0]!);
    const page = await get(cookie, "/app");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("New organisation");
  });

  it("creates an organisation and a portal from the sample, showing the token once with curl and CI", async () => {
    const cookie = await signIn("dash2@example.com");
    const made = await formPost(cookie, "/app/orgs", { name: "Dash Co" });
    expect(made.status).toBe(303);
    const orgUrl = made.headers.get("location")!;
    expect(orgUrl).toBe("/app/orgs/dash-co");
    const org = await (await get(cookie, orgUrl)).text();
    expect(org).toContain("Trial · 14 days left");
    expect(org).toContain("Audit log");
    const taken = await formPost(cookie, `${orgUrl}/portals`, { name: "X", slug: "Not A Slug" });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toMatch(/id="f-slug-error"[^>]*>slug must be/);
    const created = await formPost(cookie, `${orgUrl}/portals`, { name: "Dash Docs", slug: "dash-docs", sample: "1" });
    expect(created.status).toBe(200);
    const html = await created.text();
    expect(html).toContain("The sample is published");
    expect(html).toMatch(/<pre><code>ptk_[A-Za-z0-9_-]{43}<\/code><\/pre>/);
    expect(html).toContain("curl -X POST");
    expect(html).toContain("secrets.PORTICO_TOKEN");
    expect((await SELF.fetch(`${ORIGIN}/p/dash-docs/reference/parcel-logistics-api/`)).status).toBe(200);
    // The page again: APIs listed, the token no longer shown.
    const again = await (await get(cookie, `${orgUrl}/portals/dash-docs`)).text();
    expect(again).toContain("/p/dash-docs/reference/parcel-logistics-api/");
    expect(again).not.toMatch(/<pre><code>ptk_/);
    // A new token through the form; a refused one says why next to the field.
    const noScopes = await formPost(cookie, `${orgUrl}/portals/dash-docs/tokens`, { name: "CI" });
    expect(await noScopes.text()).toMatch(/scopes must be a non-empty array/);
    const tok = await formPost(cookie, `${orgUrl}/portals/dash-docs/tokens`, { name: "CI", scopes: ["publish:apis", "publish:content"] });
    expect(await tok.text()).toContain("Your new token “CI”");
  });

  it("hides controls a viewer cannot use, and explains a trial that ended", async () => {
    const { cookie, org, portal } = await ownerWithPortal("dash3@example.com", "dash-view");
    await formPost(cookie, `/app/orgs/${org}/members`, { email: "view3@example.com", role: "viewer" });
    const viewer = (await follow((await lastMail("view3@example.com")).links[0]!)).cookie!;
    const page = await (await get(viewer, `/app/orgs/${org}`)).text();
    expect(page).not.toContain("New portal");
    expect(page).not.toContain("Send invitation");
    expect(page).not.toContain("Audit log");
    const portalPage = await (await get(viewer, `/app/orgs/${org}/portals/${portal}`)).text();
    expect(portalPage).not.toContain("New token");
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { trialEndsAt: new Date(Date.now() - 86_400_000).toISOString() });
    const ended = await (await get(cookie, `/app/orgs/${org}`)).text();
    expect(ended).toContain("Publishing is stopped");
    expect(ended).toContain("trial-ended");
    const stranger = await signIn("dash4@example.com");
    expect((await get(stranger, `/app/orgs/${org}`)).status).toBe(404);
  });

  it("refuses a form posted from another origin", async () => {
    const cookie = await signIn("dash5@example.com");
    const res = await SELF.fetch(`${ORIGIN}/app/orgs`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", cookie }, body: "name=Evil" });
    // Refused as a page: the API's 403 and its message.
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("must come from the dashboard");
  });
});
