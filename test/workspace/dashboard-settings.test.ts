/**
 * The portal settings the dashboard edits (issue 32): gated sections, JWT readers, readers' SAML, logo and favicon,
 * brand, access and domain, each a form that works without script (a post to `/app/.../forms/{id}` that makes the
 * portal API call and redirects back, or answers the page with what is wrong next to the field). Each form's role
 * matrix, plan gating and audit entry; and writers' SSO made compulsory for an Enterprise organisation (e-mail-link
 * sessions refused with the SSO route named, owners' break-glass sign-in audited).
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { idpMetadataXml } from "../../worker/access/saml/testing/idp";
import { PORTAL_FORMS, inputFor, parseSectionLines, type PortalFormId } from "../../worker/workspace/dashboard-forms";
import { ORIGIN } from "../harness/client";
import { asAdmin, asWriter, follow, lastMail, ownerWithPortal, signIn } from "../harness/workspace";
import { IDP, IDP_ENTITY, IDP_SSO } from "../saml/harness";

function formPost(cookie: string, path: string, fields: Record<string, string | string[]>, origin: string | null = ORIGIN): Promise<Response> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return SELF.fetch(`${ORIGIN}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...(origin ? { origin } : {}), ...(cookie ? { cookie } : {}) }, body: body.toString() });
}
const get = (cookie: string, path: string) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: { cookie } });
async function member(owner: string, org: string, email: string, role: string): Promise<string> {
  expect((await asWriter(owner, "POST", `/v1/orgs/${org}/members`, { email, role })).status).toBe(201);
  return (await follow((await lastMail(email)).links[0]!)).cookie!;
}
async function portalSettings(cookie: string, portal: string): Promise<any> {
  return (await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { cookie, "portico-portal": portal } })).json();
}
async function auditOf(cookie: string, org: string): Promise<Array<{ actor: string; action: string; target: string | null }>> {
  return ((await (await asWriter(cookie, "GET", `/v1/audit?org=${org}`)).json()) as any).entries;
}
/** An RSA public key as a JWK Set (no private parts). */
async function jwks(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as Record<string, unknown>;
  return JSON.stringify({ keys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, kid: "k1", alg: "RS256" }] });
}
/** A form's own message next to input `name` in the page answered. */
const fieldError = (form: PortalFormId, name: string) => new RegExp(`id="f-${form}-${name}-error"[^>]*>([^<]+)<`);

describe("the forms' shared checks", () => {
  it("read the gated-sections text and map API fields to inputs", () => {
    expect(parseSectionLines("/guides/partners: partners, Staff\n# a comment\n\nInternal: a guide's group: staff")).toEqual({
      sections: [{ prefix: "/guides/partners", audiences: ["partners", "staff"] }, { group: "Internal: a guide's group", audiences: ["staff"] }],
    });
    expect(parseSectionLines("/guides/partners")).toEqual({ error: expect.stringContaining("line 1") });
    expect(parseSectionLines("/x: good bad!")).toEqual({ error: expect.stringContaining('"bad!" is not') });
    expect(inputFor("sections", "access.sections[3].prefix")).toBe("sections");
    expect(inputFor("jwt", "access.jwt.issuer")).toBe("issuer");
    expect(inputFor("jwt", "access.jwt.jwks")).toBe("keys");
    expect(inputFor("access", "access.magicLink.allowList")).toBe("allowList");
    expect(inputFor("access", "access.magicLink")).toBe("allowedDomains");
    expect(inputFor("logo", "brand.logo.light")).toBe("logoLight");
    expect(inputFor("brand", "brand.colors.primary")).toBe("primary");
    expect(inputFor("brand", undefined)).toBe("_");
    // Every form posts to a section page the dashboard has.
    for (const spec of Object.values(PORTAL_FORMS)) expect(["access", "branding", "domain"]).toContain(spec.section);
  });
});

describe("editing a portal's settings without script", () => {
  it("saves gated sections, JWT settings, logo and brand, and says what is wrong next to the field", async () => {
    const { cookie, org, portal, token } = await ownerWithPortal("ds-owner1@example.com", "ds-one");
    const base = `/app/orgs/${org}/portals/${portal}`;

    // Gated sections: a faulty line is named before anything is sent; a good text is saved and redirects back.
    const badSections = await formPost(cookie, `${base}/forms/sections`, { sections: "/guides/partners partners" });
    expect(badSections.status).toBe(400);
    const badHtml = await badSections.text();
    expect(badHtml).toMatch(fieldError("sections", "sections"));
    expect(badHtml).toContain("/guides/partners partners</textarea>");
    const sections = await formPost(cookie, `${base}/forms/sections`, { sections: "/guides/partners: partners\nInternal: staff" });
    expect(sections.status).toBe(303);
    expect(sections.headers.get("location")).toBe(`${base}/access?saved=sections#form-sections`);
    expect((await portalSettings(cookie, portal)).access.sections).toEqual([{ prefix: "/guides/partners", audiences: ["partners"] }, { group: "Internal", audiences: ["staff"] }]);
    const page = await (await get(cookie, `${base}/access?saved=sections`)).text();
    expect(page).toContain("/guides/partners: partners\nInternal: staff</textarea>");
    expect(page).toMatch(/id="form-sections"[\s\S]*?role="status" aria-live="polite">Saved\.</);
    // The API's own refusal (a prefix it rejects) comes back next to the same field.
    const apiRefusal = await formPost(cookie, `${base}/forms/sections`, { sections: "/a/../b: partners" });
    expect(apiRefusal.status).toBe(400);
    expect(await apiRefusal.text()).toMatch(fieldError("sections", "sections"));

    // JWT: keys that are not JSON or PEM, a short secret, then a JWKS with issuer and audience.
    const badJwt = await formPost(cookie, `${base}/forms/jwt`, { issuer: "https://auth.example.com/", audience: "docs", keys: "{not json", secret: "short", audiencesClaim: "" });
    expect(badJwt.status).toBe(400);
    const badJwtHtml = await badJwt.text();
    expect(badJwtHtml).toMatch(fieldError("jwt", "keys"));
    expect(badJwtHtml).toMatch(fieldError("jwt", "secret"));
    expect(badJwtHtml).toContain('value="https://auth.example.com/"');
    expect(badJwtHtml).not.toContain('value="short"');
    const keys = await jwks();
    expect((await formPost(cookie, `${base}/forms/jwt`, { issuer: "https://auth.example.com/", audience: "docs", keys, secret: "", audiencesClaim: "teams" })).status).toBe(303);
    const jwt = (await portalSettings(cookie, portal)).access.jwt;
    expect(jwt).toMatchObject({ issuer: "https://auth.example.com/", audience: "docs", audiencesClaim: "teams", secretSet: false });
    expect(jwt.jwks.keys[0].kid).toBe("k1");
    // Turning JWT on in "ways in" works once a key is set.
    const on = await formPost(cookie, `${base}/forms/access`, { default: "private", methods: ["jwt"], password: "", allowedDomains: "", allowList: "", magicAudiences: "" });
    expect(on.status).toBe(303);
    expect((await portalSettings(cookie, portal)).access).toMatchObject({ default: "private", methods: ["jwt"] });
    // A method whose settings are missing: the API's message beside the field it names.
    const noPassword = await formPost(cookie, `${base}/forms/access`, { default: "private", methods: ["password"], password: "", allowedDomains: "", allowList: "", magicAudiences: "" });
    expect(noPassword.status).toBe(400);
    expect(await noPassword.text()).toMatch(fieldError("access", "password"));

    // Logo: a path the live release lacks (422 beside the field), then the sample's logo after a content upload.
    const missing = await formPost(cookie, `${base}/forms/logo`, { logoLight: "images/nope.svg", logoDark: "", favicon: "" });
    expect(missing.status).toBe(422);
    expect(await missing.text()).toMatch(fieldError("logo", "logoLight"));
    const notImage = await formPost(cookie, `${base}/forms/logo`, { logoLight: "guide.md", logoDark: "", favicon: "x.gif" });
    expect(notImage.status).toBe(400);
    const notImageHtml = await notImage.text();
    expect(notImageHtml).toMatch(fieldError("logo", "logoLight"));
    expect(notImageHtml).toMatch(fieldError("logo", "favicon"));
    const { zipSync, strToU8 } = await import("fflate");
    const zip = zipSync({ "guides/start.md": strToU8("---\ntitle: Start\n---\n# Start\n"), "logo.svg": strToU8('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>') });
    expect((await SELF.fetch(`${ORIGIN}/v1/content/upload`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" }, body: zip })).status).toBeLessThan(300);
    const branding = await (await get(cookie, `${base}/branding`)).text();
    expect(branding).toContain('<option value="logo.svg">');
    expect((await formPost(cookie, `${base}/forms/logo`, { logoLight: "logo.svg", logoDark: "", favicon: "logo.svg" })).status).toBe(303);
    const brand = (await portalSettings(cookie, portal)).brand;
    expect(brand.logo.light).toMatch(/\/_content\/[0-9a-f]{64}\.svg$/);
    expect(await (await get(cookie, `${base}/branding`)).text()).toMatch(/id="f-logo-logoLight"[^>]*value="logo.svg"|value="logo.svg"[^>]*id="f-logo-logoLight"/);
    // Brand: a colour that fails contrast is refused beside the colour field.
    const contrast = await formPost(cookie, `${base}/forms/brand`, { name: "DS One", primary: "#ffff00", themeDefault: "dark" });
    expect(contrast.status).toBe(422);
    expect(await contrast.text()).toMatch(fieldError("brand", "primary"));
    expect((await formPost(cookie, `${base}/forms/brand`, { name: "DS One", primary: "", themeDefault: "dark" })).status).toBe(303);
    expect((await portalSettings(cookie, portal)).brand).toMatchObject({ name: "DS One", themeDefault: "dark" });
    // Domain: a malformed hostname never reaches the API.
    const host = await formPost(cookie, `${base}/forms/domain`, { hostname: "not a host" });
    expect(host.status).toBe(400);
    expect(await host.text()).toMatch(fieldError("domain", "hostname"));

    // Every change is audited under the writer's address.
    const audit = await auditOf(cookie, org);
    // Five saves went through (sections, JWT, ways in, logo, brand); the refused posts left no entry.
    expect(audit.filter((e) => e.actor === "ds-owner1@example.com" && e.action === "PATCH /v1/portal").length).toBe(5);
    // Unknown form: 404.
    expect((await formPost(cookie, `${base}/forms/nope`, {})).status).toBe(404);
  });

  it("holds against a save only what it touches: sections save while portico.yaml's password has no secret yet", async () => {
    const { cookie, org, portal, token } = await ownerWithPortal("ds-owner6@example.com", "ds-six");
    const base = `/app/orgs/${org}/portals/${portal}`;
    const { zipSync, strToU8 } = await import("fflate");
    const zip = zipSync({ "portico.yaml": strToU8("access:\n  methods: [password]\n"), "guides/start.md": strToU8("---\ntitle: Start\n---\n# Start\n") });
    expect((await SELF.fetch(`${ORIGIN}/v1/content/upload`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" }, body: zip })).status).toBeLessThan(300);
    expect((await formPost(cookie, `${base}/forms/sections`, { sections: "/guides: staff" })).status).toBe(303);
    expect((await formPost(cookie, `${base}/forms/jwt`, { issuer: "", audience: "", keys: await jwks(), secret: "", audiencesClaim: "" })).status).toBe(303);
    // Saving the ways in is what needs the password: refused beside the password field until it is given.
    const ways = { default: "private", methods: ["password"], allowedDomains: "", allowList: "", magicAudiences: "" };
    const refused = await formPost(cookie, `${base}/forms/access`, { ...ways, password: "" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(fieldError("access", "password"));
    expect((await formPost(cookie, `${base}/forms/access`, { ...ways, password: "a long password" })).status).toBe(303);
    expect((await portalSettings(cookie, portal)).access).toMatchObject({ passwordSet: true, sections: [{ prefix: "/guides", audiences: ["staff"] }] });
  });

  it("sets readers' SAML on Enterprise only, shows its IdP, and turns it off", async () => {
    const { cookie, org, portal } = await ownerWithPortal("ds-owner2@example.com", "ds-two");
    const base = `/app/orgs/${org}/portals/${portal}`;
    const trial = await (await get(cookie, `${base}/access`)).text();
    expect(trial).toContain("SAML readers are part of the Enterprise plan");
    expect(trial).not.toContain('data-form="reader-saml"');
    const metadata = idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]);
    // The API refuses it too (the control is only hidden in the page).
    const refused = await formPost(cookie, `${base}/forms/reader-saml`, { metadata, groups: "", email: "" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("saml is part of the Enterprise plan");

    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    const bad = await formPost(cookie, `${base}/forms/reader-saml`, { metadata: "<nope/>", groups: "groups", email: "" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(fieldError("reader-saml", "metadata"));
    const notXml = await formPost(cookie, `${base}/forms/reader-saml`, { metadata: "paste", groups: "two words", email: "" });
    expect(notXml.status).toBe(400);
    expect(await notXml.text()).toMatch(fieldError("reader-saml", "groups"));
    const badVariables = await formPost(cookie, `${base}/forms/reader-saml`, { metadata, groups: "teams", email: "", variables: "plan: memberPlan\nno colon here" });
    expect(badVariables.status).toBe(400);
    expect(await badVariables.text()).toMatch(fieldError("reader-saml", "variables"));
    const ok = await formPost(cookie, `${base}/forms/reader-saml`, { metadata, groups: "teams", email: "", variables: "plan: memberPlan\r\nregion : homeRegion" });
    expect(ok.status).toBe(303);
    const page = await (await get(cookie, `${base}/access`)).text();
    expect(page).toContain(IDP_ENTITY);
    expect(page).toContain('value="teams"');
    // The variables mapping is shown as it was saved, so saving the form again keeps it.
    expect(page).toContain("plan: memberPlan\nregion: homeRegion</textarea>");
    expect(page).toContain('data-form="reader-saml-delete"');
    expect((await formPost(cookie, `${base}/forms/reader-saml-delete`, {})).status).toBe(303);
    expect(await (await get(cookie, `${base}/access`)).text()).not.toContain(IDP_ENTITY);
    const audit = await auditOf(cookie, org);
    expect(audit).toContainEqual(expect.objectContaining({ actor: "ds-owner2@example.com", action: "PUT /v1/portal/sso" }));
    expect(audit).toContainEqual(expect.objectContaining({ actor: "ds-owner2@example.com", action: "DELETE /v1/portal/sso" }));
  });

  it("hides and refuses what the plan lacks: JWT and magic-link readers on Starter", async () => {
    const { cookie, org, portal } = await ownerWithPortal("ds-owner3@example.com", "ds-three");
    const base = `/app/orgs/${org}/portals/${portal}`;
    // Magic-link domains saved on the trial (Pro) stay when a Starter page, which has no such inputs, saves access.
    expect((await formPost(cookie, `${base}/forms/access`, { default: "public", password: "", magicLink: "shown", allowedDomains: "partner.example", allowList: "", magicAudiences: "" })).status).toBe(303);
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "starter" });
    expect((await formPost(cookie, `${base}/forms/access`, { default: "public", password: "" })).status).toBe(303);
    expect((await portalSettings(cookie, portal)).access.magicLink.allowedDomains).toEqual(["partner.example"]);
    const page = await (await get(cookie, `${base}/access`)).text();
    expect(page).toContain("JWT readers are part of the Pro plan");
    expect(page).not.toContain('data-form="jwt"');
    expect(page).not.toContain('value="jwt"');
    expect(page).toContain('data-form="sections"');
    const jwt = await formPost(cookie, `${base}/forms/jwt`, { issuer: "https://a.example/", audience: "", keys: await jwks(), secret: "", audiencesClaim: "" });
    expect(jwt.status).toBe(403);
    expect(await jwt.text()).toContain("reader-jwt is part of the Pro plan");
    expect((await portalSettings(cookie, portal)).access.jwt).toBeUndefined();
    // Gated sections are Starter's: saved.
    expect((await formPost(cookie, `${base}/forms/sections`, { sections: "/guides: staff" })).status).toBe(303);
  });

  it("lets owners and admins post each form; editors and viewers get 403, strangers 404, no session the sign-in page", async () => {
    const { cookie: owner, org, portal } = await ownerWithPortal("ds-owner4@example.com", "ds-four");
    const admin = await member(owner, org, "ds-adm4@example.com", "admin");
    const editor = await member(owner, org, "ds-ed4@example.com", "editor");
    const viewer = await member(owner, org, "ds-view4@example.com", "viewer");
    const stranger = await signIn("ds-stranger4@example.com");
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    const base = `/app/orgs/${org}/portals/${portal}`;
    const valid: Record<PortalFormId, Record<string, string | string[]>> = {
      access: { default: "public", password: "", magicLink: "shown", allowedDomains: "example.com", allowList: "", magicAudiences: "" },
      sections: { sections: "/guides/partners: partners" },
      jwt: { issuer: "https://a.example/", audience: "docs", keys: await jwks(), secret: "", audiencesClaim: "" },
      "reader-saml": { metadata: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]), groups: "", email: "" },
      "reader-saml-delete": {},
      "sign-out": {},
      brand: { name: "Four", primary: "", themeDefault: "system" },
      logo: { logoLight: "", logoDark: "", favicon: "" },
      domain: { hostname: "docs.ds-four.example" },
      "domain-delete": {},
    };
    for (const id of Object.keys(valid) as PortalFormId[]) {
      for (const [who, cookie] of [["editor", editor], ["viewer", viewer]] as const) {
        const res = await formPost(cookie, `${base}/forms/${id}`, valid[id]);
        expect(res.status, `${id} as ${who}`).toBe(403);
        expect(await res.text(), `${id} as ${who}`).toContain(`you are ${who}`);
      }
      expect((await formPost(stranger, `${base}/forms/${id}`, valid[id])).status, `${id} as a stranger`).toBe(404);
      const anonymous = await formPost("", `${base}/forms/${id}`, valid[id]);
      expect(anonymous.status, `${id} signed out`).toBe(303);
      expect(anonymous.headers.get("location")).toBe("/app/signin");
      expect((await formPost(owner, `${base}/forms/${id}`, valid[id], "https://evil.example")).status, `${id} cross-origin`).toBe(403);
    }
    // Owners and admins: each form is answered by the API (a removal of what is not there is its 404 page).
    for (const id of ["sections", "jwt", "reader-saml", "brand", "logo", "domain", "access", "sign-out"] as const) {
      for (const cookie of [owner, admin]) expect((await formPost(cookie, `${base}/forms/${id}`, valid[id])).status, id).toBe(303);
    }
    expect((await formPost(admin, `${base}/forms/reader-saml-delete`, {})).status).toBe(303);
    expect((await formPost(admin, `${base}/forms/domain-delete`, {})).status).toBe(303);
    const audit = await auditOf(owner, org);
    expect(audit).toContainEqual(expect.objectContaining({ actor: "ds-adm4@example.com", action: "PUT /v1/portal/domain" }));
    expect(audit).toContainEqual(expect.objectContaining({ actor: "ds-adm4@example.com", action: "DELETE /v1/portal/sessions" }));
    expect(audit.filter((e) => (e.actor === "ds-ed4@example.com" || e.actor === "ds-view4@example.com") && e.action.includes("/v1/"))).toEqual([]);
  });
});

describe("the organisation page's forms for roles without the right", () => {
  it("answer 403 with the API's message as the page (the form is not shown to them), and a token's scopes beside the field", async () => {
    const { cookie: owner, org, portal } = await ownerWithPortal("ds-owner7@example.com", "ds-seven");
    const editor = await member(owner, org, "ds-ed7@example.com", "editor");
    const viewer = await member(owner, org, "ds-view7@example.com", "viewer");
    const invite = await formPost(editor, `/app/orgs/${org}/members`, { email: "x7@example.com", role: "viewer" });
    expect(invite.status).toBe(403);
    expect(await invite.text()).toContain("you are editor");
    const made = await formPost(viewer, `/app/orgs/${org}/portals`, { name: "No", slug: "ds-seven-no" });
    expect(made.status).toBe(403);
    expect(await made.text()).toContain("you are viewer");
    const sso = await formPost(editor, `/app/orgs/${org}/sso/required`, { required: "1" });
    expect(sso.status).toBe(403);
    // An editor may make tokens, but not grant manage: said beside the scopes, the boxes as sent.
    const token = await formPost(editor, `/app/orgs/${org}/portals/${portal}/tokens`, { name: "CI", scopes: ["manage", "publish:content"] });
    expect(token.status).toBe(400);
    const html = await token.text();
    expect(html).toMatch(/class="notice-error" role="alert">as editor you may grant/);
    expect(html).toContain('value="publish:content" checked');
    expect(html).not.toContain('value="publish:apis" checked');
  });
});

describe("single sign-on required for writers", () => {
  it("refuses e-mail-link sessions below owner with the SSO route named, keeps the owners' break-glass path, and follows the plan", async () => {
    const { cookie: owner, org, portal } = await ownerWithPortal("ds-owner5@example.com", "ds-five");
    const admin = await member(owner, org, "ds-adm5@example.com", "admin");
    const editor = await member(owner, org, "ds-ed5@example.com", "editor");
    const viewer = await member(owner, org, "ds-view5@example.com", "viewer");
    // Trial (Pro): requiring SSO is Enterprise's; without an IdP it would lock writers out.
    const trial = await asWriter(owner, "PATCH", `/v1/orgs/${org}/sso`, { required: true });
    expect(trial.status).toBe(403);
    expect(((await trial.json()) as any).error.code).toBe("plan-required");
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    const noIdp = await asWriter(owner, "PATCH", `/v1/orgs/${org}/sso`, { required: true });
    expect(noIdp.status).toBe(409);
    expect(((await noIdp.json()) as any).error.code).toBe("sso-not-set-up");
    const put = await SELF.fetch(`${ORIGIN}/v1/orgs/${org}/sso`, { method: "PUT", headers: { cookie: owner, origin: ORIGIN, "content-type": "application/samlmetadata+xml" }, body: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]) });
    expect(put.status).toBe(200);
    // Role matrix: owners and admins set it; editors and viewers may not.
    expect((await asWriter(editor, "PATCH", `/v1/orgs/${org}/sso`, { required: true })).status).toBe(403);
    expect((await asWriter(viewer, "PATCH", `/v1/orgs/${org}/sso`, { required: true })).status).toBe(403);
    expect((await asWriter(owner, "PATCH", `/v1/orgs/${org}/sso`, { required: "yes" })).status).toBe(400);
    // From the dashboard's form (no script): the admin turns it on.
    const on = await formPost(admin, `/app/orgs/${org}/sso/required`, { required: "1" });
    expect(on.status).toBe(303);
    expect(((await (await asWriter(owner, "GET", `/v1/orgs/${org}/sso`)).json()) as any).required).toBe(true);

    // The admin's own e-mail session is now refused, naming the SSO route; so are the editor's API and portal calls.
    const refusedApi = await asWriter(editor, "GET", `/v1/orgs/${org}`);
    expect(refusedApi.status).toBe(403);
    const err = ((await refusedApi.json()) as any).error;
    expect(err).toMatchObject({ code: "sso-required", details: { login: `/v1/auth/saml/${org}/login` } });
    expect(err.message).toContain(`/v1/auth/saml/${org}/login`);
    expect((await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { cookie: viewer, "portico-portal": portal } })).status).toBe(403);
    expect((await asWriter(admin, "GET", `/v1/tokens?portal=${portal}`)).status).toBe(403);
    const pageRefused = await get(admin, `/app/orgs/${org}`);
    expect(pageRefused.status).toBe(403);
    expect(await pageRefused.text()).toContain(`href="/v1/auth/saml/${org}/login"`);
    // A new e-mail link of a member of this organisation alone is refused outright, with the route, and no session.
    await SELF.fetch(`${ORIGIN}/v1/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify({ email: "ds-ed5@example.com" }) });
    const link = await follow((await lastMail("ds-ed5@example.com")).links[0]!);
    expect(link.res.status).toBe(403);
    expect(link.cookie).toBeUndefined();
    expect(await link.res.text()).toContain(`/v1/auth/saml/${org}/login`);

    // The owner keeps the e-mail link (break glass), audited.
    expect((await get(owner, `/app/orgs/${org}`)).status).toBe(200);
    const ownerAgain = await signIn("ds-owner5@example.com");
    expect((await asWriter(ownerAgain, "GET", `/v1/orgs/${org}`)).status).toBe(200);
    const audit = await auditOf(owner, org);
    expect(audit).toContainEqual(expect.objectContaining({ actor: "ds-owner5@example.com", action: "sso.break-glass", target: org }));
    expect(audit).toContainEqual(expect.objectContaining({ actor: "ds-adm5@example.com", action: "sso.require" }));

    // Below Enterprise the IdP cannot sign anyone in, so the requirement rests; removing the IdP lifts it.
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "pro" });
    expect((await asWriter(editor, "GET", `/v1/orgs/${org}`)).status).toBe(200);
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    expect((await asWriter(editor, "GET", `/v1/orgs/${org}`)).status).toBe(403);
    expect((await asWriter(owner, "DELETE", `/v1/orgs/${org}/sso`)).status).toBe(200);
    expect((await asWriter(editor, "GET", `/v1/orgs/${org}`)).status).toBe(200);
  });
});
