/**
 * The dashboard's portal pages (issue 32): versions and lint reports, content releases, access, branding, domain,
 * Git and analytics, read through the portal API as the signed-in writer (`Portico-Portal`), whose role stands for
 * scopes (viewers read only); member management (role change, removal, the last owner's 409, revoked invitations)
 * and the writers' SSO panel.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { idpMetadataXml } from "../../worker/access/saml/testing/idp";
import { ORIGIN } from "../harness/client";
import { asAdmin, asWriter, follow, lastMail, ownerWithPortal, signIn } from "../harness/workspace";
import { IDP, IDP_ENTITY, IDP_SSO } from "../saml/harness";

const DEF = "openapi: 3.1.0\ninfo: {title: Lint Me, version: 1.0.0}\npaths:\n  /things:\n    get:\n      responses: {'200': {description: ok}}\n";

function formPost(cookie: string, path: string, fields: Record<string, string>): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, cookie }, body: new URLSearchParams(fields).toString() });
}
const get = (cookie: string, path: string) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: { cookie } });
/** A portal API call as the writer, naming the portal. */
function asPortalWriter(cookie: string, portal: string, method: string, path: string, body?: unknown, extra: Record<string, string> = { origin: ORIGIN }): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method, headers: { cookie, "portico-portal": portal, ...extra, ...(body === undefined ? {} : { "content-type": typeof body === "string" ? "application/yaml" : "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}
/** Invites `email` as `role` and returns their signed-in cookie (the invitation accepted). */
async function member(owner: string, org: string, email: string, role: string): Promise<string> {
  expect((await asWriter(owner, "POST", `/v1/orgs/${org}/members`, { email, role })).status).toBe(201);
  return (await follow((await lastMail(email)).links[0]!)).cookie!;
}

describe("the portal API with a writer's session", () => {
  it("lets the role stand for scopes: owners manage, editors publish, viewers read; strangers see nothing", async () => {
    const { cookie: owner, org, portal } = await ownerWithPortal("dp-owner1@example.com", "dp-one");
    const editor = await member(owner, org, "dp-ed1@example.com", "editor");
    const viewer = await member(owner, org, "dp-view1@example.com", "viewer");
    const stranger = await signIn("dp-stranger1@example.com");

    expect((await asPortalWriter(owner, portal, "PATCH", "/v1/portal", { brand: { name: "Owned" } })).status).toBe(200);
    const read = (await (await asPortalWriter(viewer, portal, "GET", "/v1/portal")).json()) as any;
    expect(read.brand.name).toBe("Owned");
    expect((await asPortalWriter(editor, portal, "POST", "/v1/apis/upload?api=lint-me", DEF)).status).toBe(201);
    expect((await asPortalWriter(viewer, portal, "GET", "/v1/apis")).status).toBe(200);

    const viewerWrite = await asPortalWriter(viewer, portal, "POST", "/v1/apis/upload?api=lint-me", DEF);
    expect(viewerWrite.status).toBe(403);
    expect(((await viewerWrite.json()) as any).error).toMatchObject({ code: "role-required", details: { role: "viewer" } });
    const editorManage = await asPortalWriter(editor, portal, "PATCH", "/v1/portal", { brand: { name: "Nope" } });
    expect(editorManage.status).toBe(403);
    expect((await asPortalWriter(editor, portal, "GET", "/v1/portal/domain")).status).toBe(403);
    expect((await asPortalWriter(stranger, portal, "GET", "/v1/portal")).status).toBe(404);
    // A change without the dashboard's Origin is refused; so is a call with no session.
    expect((await asPortalWriter(owner, portal, "PATCH", "/v1/portal", { brand: { name: "X" } }, {})).status).toBe(403);
    expect((await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { "portico-portal": portal } })).status).toBe(401);
    // Changes are audited under the writer's address.
    const audit = (await (await asWriter(owner, "GET", `/v1/audit?org=${org}`)).json()) as { entries: Array<{ actor: string; actorType: string; action: string }> };
    expect(audit.entries).toContainEqual(expect.objectContaining({ actor: "dp-ed1@example.com", actorType: "writer", action: "POST /v1/apis/upload" }));
    expect(audit.entries).toContainEqual(expect.objectContaining({ actor: "dp-owner1@example.com", action: "PATCH /v1/portal" }));
  });
});

describe("the portal's dashboard pages", () => {
  it("show versions with lint, the lint report, content, access, branding, domain, Git and analytics", async () => {
    const { cookie, org, portal, token } = await ownerWithPortal("dp-owner2@example.com", "dp-two");
    const up = await SELF.fetch(`${ORIGIN}/v1/apis/upload?api=lint-me`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: DEF });
    expect(up.status).toBe(201);
    const base = `/app/orgs/${org}/portals/${portal}`;

    const versions = await (await get(cookie, `${base}/versions`)).text();
    expect(versions).toContain("Lint Me");
    const lintLink = /href="([^"]+\/lint)"/.exec(versions)![1]!;
    expect(lintLink).toBe(`${base}/versions/lint-me/1.0.0/lint`);
    const lint = await get(cookie, lintLink);
    expect(lint.status).toBe(200);
    const report = await lint.text();
    expect(report).toMatch(/<td class="sev-(error|warning)">/);
    expect(report).toContain("operation-operationId");

    const content = await (await get(cookie, `${base}/content`)).text();
    expect(content).toContain("No content is published yet");

    const access = await (await get(cookie, `${base}/access`)).text();
    expect(access).toContain('data-form="access"');
    expect(access).toContain(`action="${base}/forms/sections"`);
    expect(access).toContain('<script type="module" src="/assets/dashboard.js">');
    expect(access).toContain('data-portal="dp-two"');

    const branding = await (await get(cookie, `${base}/branding`)).text();
    expect(branding).toContain('data-form="brand"');
    expect(branding).toContain('data-form="logo"');

    const domain = await (await get(cookie, `${base}/domain`)).text();
    expect(domain).toContain("Add a domain");

    const git = await get(cookie, `${base}/git`);
    expect(git.status).toBe(200);
    expect(await git.text()).toContain("Not connected");

    const analytics = await (await get(cookie, `${base}/analytics`)).text();
    expect(analytics).toContain(`/p/${portal}/admin/analytics`);

    // Another organisation's portal through this one's address: not found.
    const other = await ownerWithPortal("dp-owner3@example.com", "dp-three");
    expect((await get(cookie, `/app/orgs/${org}/portals/${other.portal}/versions`)).status).toBe(404);
    expect((await get(other.cookie, `${base}/versions`)).status).toBe(404);
  });

  it("are read-only for a viewer, and gated controls follow the plan", async () => {
    const { cookie: owner, org, portal } = await ownerWithPortal("dp-owner4@example.com", "dp-four");
    const viewer = await member(owner, org, "dp-view4@example.com", "viewer");
    const base = `/app/orgs/${org}/portals/${portal}`;
    for (const section of ["access", "branding"]) {
      const html = await (await get(viewer, `${base}/${section}`)).text();
      expect(html, section).not.toContain("data-form=");
      expect(html, section).toContain("As viewer you read");
    }
    expect(await (await get(viewer, `${base}/domain`)).text()).not.toContain("Add a domain");
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "starter" });
    const domain = await (await get(owner, `${base}/domain`)).text();
    expect(domain).toContain("Custom domains are part of the Pro plan");
    expect(domain).not.toContain('data-form="domain"');
    const analytics = await (await get(owner, `${base}/analytics`)).text();
    expect(analytics).toContain("part of the Pro plan");
  });
});

describe("member management in the dashboard", () => {
  it("changes a role, removes a member, revokes an invitation, and shows the last owner's 409", async () => {
    const { cookie: owner, org } = await ownerWithPortal("dp-owner5@example.com", "dp-five");
    const editorCookie = await member(owner, org, "dp-ed5@example.com", "editor");
    const members = async () => ((await (await asWriter(owner, "GET", `/v1/orgs/${org}/members`)).json()) as { members: Array<{ id: number; email: string; role: string }>; invitations: Array<{ id: number; email: string }> });
    const ed = (await members()).members.find((m) => m.email === "dp-ed5@example.com")!;
    const me = (await members()).members.find((m) => m.email === "dp-owner5@example.com")!;

    const page = await (await get(owner, `/app/orgs/${org}`)).text();
    expect(page).toContain(`action="/app/orgs/${org}/members/${ed.id}/role"`);
    expect(page).toContain(`aria-label="Remove dp-ed5@example.com"`);

    const changed = await formPost(owner, `/app/orgs/${org}/members/${ed.id}/role`, { role: "admin" });
    expect(changed.status).toBe(303);
    expect((await members()).members.find((m) => m.id === ed.id)!.role).toBe("admin");

    const lastOwner = await formPost(owner, `/app/orgs/${org}/members/${me.id}/role`, { role: "viewer" });
    expect(lastOwner.status).toBe(409);
    expect(await lastOwner.text()).toMatch(/id="member-notice">the organisation&#39;s last owner cannot step down|id="member-notice">the organisation's last owner cannot step down/);
    expect((await members()).members.find((m) => m.id === me.id)!.role).toBe("owner");
    const leave = await formPost(owner, `/app/orgs/${org}/members/${me.id}/remove`, {});
    expect(leave.status).toBe(409);
    expect(await leave.text()).toContain("last owner cannot leave");

    const removed = await formPost(owner, `/app/orgs/${org}/members/${ed.id}/remove`, {});
    expect(removed.status).toBe(303);
    expect((await members()).members.map((m) => m.email)).not.toContain("dp-ed5@example.com");
    expect((await get(editorCookie, `/app/orgs/${org}`)).status).toBe(404);

    await asWriter(owner, "POST", `/v1/orgs/${org}/members`, { email: "dp-inv5@example.com", role: "viewer" });
    const link = (await lastMail("dp-inv5@example.com")).links[0]!;
    const inv = (await members()).invitations.find((i) => i.email === "dp-inv5@example.com")!;
    expect(await (await get(owner, `/app/orgs/${org}`)).text()).toContain(`action="/app/orgs/${org}/invitations/${inv.id}/revoke"`);
    expect((await formPost(owner, `/app/orgs/${org}/invitations/${inv.id}/revoke`, {})).status).toBe(303);
    expect((await members()).invitations).toEqual([]);
    expect((await follow(link)).res.status).toBe(400);
    const audit = (await (await asWriter(owner, "GET", `/v1/audit?org=${org}`)).json()) as { entries: Array<{ action: string; target: string }> };
    expect(audit.entries).toContainEqual(expect.objectContaining({ action: "member.uninvite", target: "dp-inv5@example.com" }));
  });

  it("shows no member controls to an editor, and no owner controls to an admin", async () => {
    const { cookie: owner, org } = await ownerWithPortal("dp-owner6@example.com", "dp-six");
    const admin = await member(owner, org, "dp-adm6@example.com", "admin");
    const editor = await member(owner, org, "dp-ed6@example.com", "editor");
    const adminPage = await (await get(admin, `/app/orgs/${org}`)).text();
    expect(adminPage).not.toContain("aria-label=\"Remove dp-owner6@example.com\"");
    expect(adminPage).toContain("aria-label=\"Remove dp-ed6@example.com\"");
    expect(adminPage).not.toContain('<option value="owner"');
    const editorPage = await (await get(editor, `/app/orgs/${org}`)).text();
    expect(editorPage).not.toContain("Change role");
  });
});

describe("the writers' SSO panel", () => {
  it("sets the IdP from the organisation page on Enterprise, says what is wrong next to the field, and offers SSO at sign-in", async () => {
    const { cookie, org } = await ownerWithPortal("dp-owner7@example.com", "dp-seven");
    const before = await (await get(cookie, `/app/orgs/${org}`)).text();
    expect(before).toContain("single sign-on through your identity provider is part of the Enterprise plan");
    expect(before).not.toContain('action="/app/orgs/' + org + '/sso"');
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    const bad = await formPost(cookie, `/app/orgs/${org}/sso`, { metadata: "<nope/>", defaultRole: "editor", roleAttribute: "role" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="f-metadata-error"[^>]*>IdP metadata refused/);
    const ok = await formPost(cookie, `/app/orgs/${org}/sso`, { metadata: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]), defaultRole: "editor", roleAttribute: "groups" });
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain("Saved.");
    expect(html).toContain(IDP_ENTITY);
    expect(html).toContain(`${ORIGIN}/v1/auth/saml/${org}/acs`);
    const view = (await (await asWriter(cookie, "GET", `/v1/orgs/${org}/sso`)).json()) as any;
    expect(view.sso.settings).toEqual({ defaultRole: "editor", roleAttribute: "groups" });

    const signin = await SELF.fetch(`${ORIGIN}/app/signin/sso`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN }, body: `org=${org}` });
    expect(signin.status).toBe(303);
    expect(signin.headers.get("location")).toBe(`/v1/auth/saml/${org}/login`);
    const login = await SELF.fetch(`${ORIGIN}${signin.headers.get("location")}`, { redirect: "manual" });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toMatch(/^https:\/\/idp\.test\/sso\?SAMLRequest=/);
  });
});
