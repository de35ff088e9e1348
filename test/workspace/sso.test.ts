/**
 * SAML single sign-on for writers (issue 32, Enterprise): an owner sets the organisation's IdP, a writer signs in
 * through it with a really signed assertion (the readers' test IdP, xml-crypto) and lands on /app with the role
 * the IdP named (or the default); forged, unsigned, wrong-audience and replayed answers are refused; the session
 * reaches this organisation only; the plan gates it all (403 plan-required).
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { base64Utf8, idpMetadataXml, inflateSamlRequest, responseXml, signXml, type TestAssertion } from "../../worker/access/saml/testing/idp";
import { ORIGIN } from "../harness/client";
import { asAdmin, asWriter, follow, lastMail, ownerWithPortal } from "../harness/workspace";
import { IDP, IDP_ENTITY, IDP_SSO, OTHER_IDP } from "../saml/harness";

const sp = (org: string) => ({ entityId: `${ORIGIN}/v1/auth/saml/${org}/metadata`, acsUrl: `${ORIGIN}/v1/auth/saml/${org}/acs` });
const fetchPath = (path: string, init: RequestInit = {}) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

/** An organisation on Enterprise with the test IdP set (query: settings). */
async function ssoOrg(email: string, portal: string, query = ""): Promise<{ cookie: string; org: string }> {
  const { cookie, org } = await ownerWithPortal(email, portal);
  expect((await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" })).status).toBe(200);
  const put = await fetchPath(`/v1/orgs/${org}/sso${query}`, { method: "PUT", headers: { cookie, origin: ORIGIN, "content-type": "application/samlmetadata+xml" }, body: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]) });
  expect(put.status, await put.clone().text()).toBe(200);
  return { cookie, org };
}

/** GET …/login: the AuthnRequest ID and the binding cookie the browser keeps. */
async function start(org: string, returnTo?: string): Promise<{ id: string; cookie: string }> {
  const res = await fetchPath(`/v1/auth/saml/${org}/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ""}`);
  expect(res.status, await res.clone().text()).toBe(302);
  const cookie = /^(portico_writer_saml=[^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!;
  const location = new URL(res.headers.get("location")!);
  expect(`${location.origin}${location.pathname}`).toBe(IDP_SSO);
  const xml = await inflateSamlRequest(location.searchParams.get("SAMLRequest")!);
  expect(xml).toContain(`<saml:Issuer>${sp(org).entityId}</saml:Issuer>`);
  return { id: /\sID="([^"]+)"/.exec(xml)![1]!, cookie };
}

function acs(org: string, samlResponse: string, cookie: string | undefined): Promise<Response> {
  return fetchPath(`/v1/auth/saml/${org}/acs`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: "x" }).toString(),
  });
}

function assertion(org: string, inResponseTo: string, extra: Partial<TestAssertion> = {}): TestAssertion {
  return { inResponseTo, acsUrl: sp(org).acsUrl, audience: sp(org).entityId, issuer: IDP_ENTITY, nameId: "ada@sso.test", now: new Date(), ...extra };
}
const signed = (a: TestAssertion, keys = IDP) => base64Utf8(signXml(responseXml(a), "Assertion", keys.key, keys.cert));
const writerCookie = (res: Response) => /(portico_writer=[^;]+)/.exec(res.headers.getSetCookie().join("\n"))?.[1];

describe("writers' SAML sign-in", () => {
  it("signs a writer in through the IdP, with the role the IdP names, and lands on the organisation", async () => {
    const { cookie: owner, org } = await ssoOrg("sso-owner1@example.com", "sso-one");
    const meta = await fetchPath(`/v1/auth/saml/${org}/metadata`);
    expect(await meta.text()).toContain(`Location="${sp(org).acsUrl}"`);
    const { id, cookie } = await start(org);
    const res = await acs(org, signed(assertion(org, id, { nameId: "ada@sso.test", attributes: { role: ["Editor"] } })), cookie);
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get("location")).toBe(`/app/orgs/${org}`);
    const session = writerCookie(res)!;
    expect(session).toBeDefined();
    const page = await fetchPath(`/app/orgs/${org}`, { headers: { cookie: session } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("ada@sso.test");
    const members = (await (await asWriter(owner, "GET", `/v1/orgs/${org}/members`)).json()) as { members: Array<{ email: string; role: string }> };
    expect(members.members.find((m) => m.email === "ada@sso.test")?.role).toBe("editor");
    const audit = (await (await asWriter(owner, "GET", `/v1/audit?org=${org}`)).json()) as { entries: Array<{ action: string; target: string; details: any }> };
    expect(audit.entries.find((e) => e.action === "member.join" && e.target === "ada@sso.test")?.details).toEqual({ role: "editor", via: "saml" });
    // The settings read back with the SP to give the IdP and the certificate's fingerprint.
    const view = (await (await asWriter(owner, "GET", `/v1/orgs/${org}/sso`)).json()) as any;
    expect(view.sso.sp).toMatchObject({ entityId: sp(org).entityId, acsUrl: sp(org).acsUrl });
    expect(view.sso.idp.certificateFingerprints[0]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(view.enabled).toBe(true);
  });

  it("gives a newcomer the default role, keeps an owner an owner, and never grants owner", async () => {
    const { org } = await ssoOrg("sso-owner2@example.com", "sso-two", "?defaultRole=editor&role=groups");
    let s = await start(org);
    let res = await acs(org, signed(assertion(org, s.id, { nameId: "bo@sso.test", attributes: { groups: ["owner", "staff"] } })), s.cookie);
    expect(res.status).toBe(303);
    const bo = writerCookie(res)!;
    const session = (await (await fetchPath("/v1/auth/session", { headers: { cookie: bo } })).json()) as any;
    expect(session).toMatchObject({ sso: true, orgs: [{ id: org, role: "editor" }] });
    // The owner signs in through the IdP, which calls them a viewer: they stay owner.
    s = await start(org);
    res = await acs(org, signed(assertion(org, s.id, { nameId: "sso-owner2@example.com", attributes: { groups: ["viewer"] } })), s.cookie);
    const owner = writerCookie(res)!;
    const me = (await (await fetchPath("/v1/auth/session", { headers: { cookie: owner } })).json()) as any;
    expect(me.orgs[0].role).toBe("owner");
  });

  it("reaches this organisation only: the same address's other organisations stay closed to the IdP's session", async () => {
    const other = await ownerWithPortal("cyd@sso.test", "sso-cyd-own");
    const { org } = await ssoOrg("sso-owner3@example.com", "sso-three");
    const s = await start(org);
    const res = await acs(org, signed(assertion(org, s.id, { nameId: "cyd@sso.test" })), s.cookie);
    const cookie = writerCookie(res)!;
    expect((await fetchPath(`/app/orgs/${other.org}`, { headers: { cookie } })).status).toBe(404);
    expect((await asWriter(cookie, "GET", `/v1/orgs/${other.org}/members`)).status).toBe(404);
    expect((await asWriter(cookie, "GET", `/v1/tokens?portal=sso-cyd-own`)).status).toBe(404);
    const orgs = (await (await asWriter(cookie, "GET", "/v1/orgs")).json()) as { orgs: Array<{ id: string }> };
    expect(orgs.orgs.map((o) => o.id)).toEqual([org]);
    expect((await asWriter(cookie, "POST", "/v1/orgs", { name: "Sneaky" })).status).toBe(403);
    // Signed in by e-mail, the same writer reaches both.
    expect((await fetchPath(`/app/orgs/${other.org}`, { headers: { cookie: other.cookie } })).status).toBe(200);
  });

  it("refuses forged, unsigned, wrong-audience, other-browser and replayed answers", async () => {
    const { org } = await ssoOrg("sso-owner4@example.com", "sso-four");
    const cases: Array<[string, (id: string) => string, RegExp]> = [
      ["signed by another key", (id) => signed(assertion(org, id), OTHER_IDP), /does not verify/],
      ["unsigned", (id) => base64Utf8(responseXml(assertion(org, id))), /neither the Response nor the Assertion is signed/],
      ["wrong audience", (id) => signed(assertion(org, id, { audience: `${ORIGIN}/v1/auth/saml/some-other-org/metadata` })), /Audience/],
      ["wrong recipient", (id) => signed(assertion(org, id, { destination: `${ORIGIN}/p/x/auth/saml/acs`, recipient: `${ORIGIN}/p/x/auth/saml/acs` })), /Destination/],
      ["expired", (id) => signed(assertion(org, id, { now: new Date(Date.now() - 3_600_000) })), /expired|NotOnOrAfter/],
      ["altered after signing", (id) => base64Utf8(signXml(responseXml(assertion(org, id)), "Assertion", IDP.key, IDP.cert).replace("ada@sso.test", "sso-owner4@example.com")), /does not verify|signature/],
    ];
    for (const [what, make, message] of cases) {
      const s = await start(org);
      const res = await acs(org, make(s.id), s.cookie);
      expect(res.status, what).toBe(403);
      expect(writerCookie(res), what).toBeUndefined();
      expect(await res.text(), what).toMatch(message);
    }
    // Started in another browser (no binding cookie): refused.
    const elsewhere = await start(org);
    expect((await acs(org, signed(assertion(org, elsewhere.id)), undefined)).status).toBe(403);
    // Replayed: the first use opens a session, the second nothing.
    const s = await start(org);
    const body = signed(assertion(org, s.id));
    expect((await acs(org, body, s.cookie)).status).toBe(303);
    const again = await acs(org, body, s.cookie);
    expect(again.status).toBe(403);
    expect(writerCookie(again)).toBeUndefined();
    expect(await again.text()).toContain("used already");
    // A request of another organisation cannot be answered here.
    const { org: org2 } = await ssoOrg("sso-owner5@example.com", "sso-five");
    const s2 = await start(org2);
    const cross = await acs(org, signed(assertion(org, s2.id)), s2.cookie);
    expect(cross.status).toBe(403);
  });

  it("is Enterprise's: setting the IdP answers 403 plan-required below it, and sign-in stops when the plan does", async () => {
    const { cookie, org } = await ownerWithPortal("sso-owner6@example.com", "sso-six");
    const put = () => fetchPath(`/v1/orgs/${org}/sso`, { method: "PUT", headers: { cookie, origin: ORIGIN }, body: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]) });
    const refused = await put();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as any).error).toMatchObject({ code: "plan-required", details: { feature: "saml", plan: "enterprise" } });
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    expect((await put()).status).toBe(200);
    const s = await start(org);
    const res = await acs(org, signed(assertion(org, s.id)), s.cookie);
    const session = writerCookie(res)!;
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "pro" });
    const login = await fetchPath(`/v1/auth/saml/${org}/login`);
    expect(login.status).toBe(403);
    expect(await login.text()).toContain("plan-required");
    // Removing the IdP ends the sessions it opened.
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    expect((await asWriter(cookie, "DELETE", `/v1/orgs/${org}/sso`)).status).toBe(200);
    expect((await fetchPath(`/app/orgs/${org}`, { headers: { cookie: session } })).status).toBe(303);
  });

  it("lets owners and admins configure it, not editors; bad metadata is a 400 naming the field", async () => {
    const { cookie, org } = await ssoOrg("sso-owner7@example.com", "sso-seven");
    const bad = await fetchPath(`/v1/orgs/${org}/sso`, { method: "PUT", headers: { cookie, origin: ORIGIN }, body: "<not-metadata/>" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({ code: "invalid-metadata", details: { field: "metadata" } });
    const badRole = await fetchPath(`/v1/orgs/${org}/sso?defaultRole=owner`, { method: "PUT", headers: { cookie, origin: ORIGIN }, body: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]) });
    expect(badRole.status).toBe(400);
    await asWriter(cookie, "POST", `/v1/orgs/${org}/members`, { email: "sso-ed7@example.com", role: "editor" });
    const editor = (await follow((await lastMail("sso-ed7@example.com")).links[0]!)).cookie!;
    const denied = await asWriter(editor, "GET", `/v1/orgs/${org}/sso`);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as any).error.code).toBe("role-required");
  });
});
