import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { base64Utf8, responseXml, signXml, type TestAssertion } from "../../worker/access/saml/testing/idp";
import { fetchPath, IDP_ENTITY, postAcs, samlPortal, sessionOf, spOf, startLogin, IDP, sessionCookie } from "./harness";

const { key: idpKey, cert: idpCert } = IDP;

function assertionFor(slug: string, inResponseTo: string, extra: Partial<TestAssertion> = {}): TestAssertion {
  const sp = spOf(slug);
  return {
    inResponseTo, acsUrl: sp.acsUrl, audience: sp.entityId, issuer: IDP_ENTITY, nameId: "ada@acme.test", now: new Date(),
    attributes: { groups: ["partners"], "vars.api_key": ["sk_test_ada"], plan: ["gold"] }, ...extra,
  };
}

describe("SAML SSO, SP-initiated, end to end through the routes", () => {
  it("metadata → login → IdP → ACS: the session holds the reader, then lands back on the page", async () => {
    const token = await samlPortal("saml-trip", "?var.plan=plan");
    const meta = await fetchPath("/p/saml-trip/auth/saml/metadata");
    expect(meta.status).toBe(200);
    expect(meta.headers.get("content-type")).toMatch(/^application\/samlmetadata\+xml/);
    const metaXml = await meta.text();
    expect(metaXml).toContain(`entityID="${spOf("saml-trip").entityId}"`);
    expect(metaXml).toContain(`Location="${spOf("saml-trip").acsUrl}"`);

    const id = await startLogin("saml-trip", "/p/saml-trip/guides/partners?tab=1");
    const res = await postAcs("saml-trip", base64Utf8(signXml(responseXml(assertionFor("saml-trip", id)), "Assertion", idpKey, idpCert)));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/p/saml-trip/guides/partners?tab=1");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await sessionOf("saml-trip", res)).toEqual({
      readerId: "ada@acme.test", email: "ada@acme.test", audiences: ["partners"], variables: { api_key: "sk_test_ada", plan: "gold" }, method: "saml",
    });

    const settings = await fetchPath("/v1/portal/sso", { headers: { authorization: `Bearer ${token}` } });
    const body = (await settings.json()) as any;
    expect(body.sso.idp).toMatchObject({ entityId: IDP_ENTITY, ssoUrl: "https://idp.test/sso" });
    expect(body.sso.idp.certificateFingerprints[0]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(body.sso.attributes).toEqual({ groupsAttribute: "groups", variables: { plan: "plan" } });
  });

  it("a signed Response (unsigned Assertion) works too; a return path off the portal lands on the portal home", async () => {
    await samlPortal("saml-resp");
    const id = await startLogin("saml-resp", "https://evil.example/phish");
    const res = await postAcs("saml-resp", base64Utf8(signXml(responseXml(assertionFor("saml-resp", id)), "Response", idpKey, idpCert)));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/p/saml-resp/");
  });

  it("refuses a replayed Response: InResponseTo is single use", async () => {
    await samlPortal("saml-replay");
    const id = await startLogin("saml-replay", "/p/saml-replay/");
    const body = base64Utf8(signXml(responseXml(assertionFor("saml-replay", id)), "Assertion", idpKey, idpCert));
    expect((await postAcs("saml-replay", body)).status).toBe(303);
    const again = await postAcs("saml-replay", body);
    expect(again.status).toBe(403);
    expect(again.headers.get("set-cookie")).toBeNull();
    // The assertion's ID is remembered first (the replay cache); the request would be found consumed after it.
    expect(await again.text()).toContain("used already");
  });

  it("refuses an InResponseTo we never issued, one issued for another portal, and an expired request", async () => {
    await samlPortal("saml-a");
    await samlPortal("saml-b");
    const forged = await postAcs("saml-a", base64Utf8(signXml(responseXml(assertionFor("saml-a", "_0123456789abcdef0123456789abcdef")), "Assertion", idpKey, idpCert)));
    expect(forged.status).toBe(403);
    // A request of portal B answered with a message addressed to portal A's ACS, posted to A.
    const idB = await startLogin("saml-b", "/p/saml-b/");
    expect((await postAcs("saml-a", base64Utf8(signXml(responseXml(assertionFor("saml-a", idB)), "Assertion", idpKey, idpCert)))).status).toBe(403);
    // …and B's own message posted to A's ACS names B's Destination and Audience.
    expect((await postAcs("saml-a", base64Utf8(signXml(responseXml(assertionFor("saml-b", idB)), "Assertion", idpKey, idpCert)))).status).toBe(403);
    const idA = await startLogin("saml-a", "/p/saml-a/");
    await env.DB.prepare("UPDATE saml_requests SET expires_at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), idA).run();
    expect((await postAcs("saml-a", base64Utf8(signXml(responseXml(assertionFor("saml-a", idA)), "Assertion", idpKey, idpCert)))).status).toBe(403);
    // B's request was untouched by the refusals and still signs in.
    expect((await postAcs("saml-b", base64Utf8(signXml(responseXml(assertionFor("saml-b", idB)), "Assertion", idpKey, idpCert)))).status).toBe(303);
  });
});

describe("SSO settings (PUT /v1/portal/sso) and unconfigured portals", () => {
  it("needs the portal token, refuses bad metadata and unknown query parameters with 400, changes nothing on refusal", async () => {
    const token = await samlPortal("saml-set");
    const put = (body: string, query = "", auth = `Bearer ${token}`) => fetchPath(`/v1/portal/sso${query}`, { method: "PUT", headers: { authorization: auth }, body });
    expect((await put("<x/>", "", "")).status).toBe(401);
    const bad = await put("<md:EntityDescriptor xmlns:md=\"urn:oasis:names:tc:SAML:2.0:metadata\" entityID=\"x\"/>");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({ code: "invalid-metadata", details: { reason: "metadata-no-idp" } });
    expect((await put("<!DOCTYPE x><x/>")).status).toBe(400);
    expect((await put("<x/>", "?colour=blue")).status).toBe(400);
    const still = await fetchPath("/v1/portal/sso", { headers: { authorization: `Bearer ${token}` } });
    expect(((await still.json()) as any).sso.idp.entityId).toBe(IDP_ENTITY);
    // Taking saml out of the access methods stops SSO; the IdP stays configured.
    expect((await fetchPath("/p/saml-set/auth/saml/login")).status).toBe(302);
    const off = await fetchPath("/v1/portal", { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access: { default: "public", methods: [] } }) });
    expect(off.status).toBe(200);
    expect((await fetchPath("/p/saml-set/auth/saml/login")).status).toBe(404);
    expect((await fetchPath("/v1/portal/sso", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetchPath("/v1/portal/sso", { method: "DELETE", headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetchPath("/p/saml-set/auth/saml/login")).status).toBe(404);
  });

  it("login and ACS answer 404 where SAML is not set up; the SP metadata is served anyway (the IdP admin needs it first)", async () => {
    const { createPortal } = await import("../harness/client");
    await createPortal("saml-none");
    expect((await fetchPath("/p/saml-none/auth/saml/login")).status).toBe(404);
    expect((await postAcs("saml-none", "AAAA")).status).toBe(404);
    expect((await fetchPath("/p/saml-none/auth/saml/metadata")).status).toBe(200);
    expect((await fetchPath("/p/no-such-portal/auth/saml/metadata")).status).toBe(404);
  });
});

describe("SAML on a private portal", () => {
  it("a gated page sends the reader to sign-in, SSO signs them in, they land back on the page; sign-out ends it", async () => {
    const { upload } = await import("../harness/client");
    const petstore = (await import("../fixtures/petstore-v3.yaml?raw")).default;
    const token = await samlPortal("saml-private");
    expect((await upload(token, petstore, { api: "pets", version: "1.0" })).status).toBe(201);
    const access = await fetchPath("/v1/portal", {
      method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access: { default: "private", methods: ["saml"] } }),
    });
    expect(access.status).toBe(200);
    const target = "/p/saml-private/reference/pets/1.0/";
    const gated = await fetchPath(target);
    expect([302, 303]).toContain(gated.status);
    const signin = gated.headers.get("location")!;
    expect(signin).toContain("/p/saml-private/auth/signin");
    const signinPage = await (await fetchPath(signin)).text();
    expect(signinPage).toContain("/p/saml-private/auth/saml/login?return=");

    const id = await startLogin("saml-private", target);
    const acs = await postAcs("saml-private", base64Utf8(signXml(responseXml(assertionFor("saml-private", id)), "Assertion", idpKey, idpCert)));
    expect(acs.status).toBe(303);
    expect(acs.headers.get("location")).toBe(target);
    const cookie = sessionCookie(acs)!;
    const page = await fetchPath(target, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(await page.text()).toContain("Swagger Petstore");

    const out = await fetchPath("/p/saml-private/auth/signout", { method: "POST", headers: { cookie, origin: "http://portico.test", "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(out.status).toBe(303);
    const cleared = out.headers.getSetCookie();
    expect(cleared.some((c) => /^portico_session=;/.test(c))).toBe(true);
    expect(cleared.some((c) => /^portico_api_key=;/.test(c))).toBe(true);
  });
});

describe("SAML groups open audience sections", () => {
  it("a reader whose IdP group is 'Partners' opens the partners section; one without the group gets a 404", async () => {
    const { upload } = await import("../harness/client");
    const { bundle, PETSTORE_OPS, uploadContent } = await import("../content/bundles");
    const token = await samlPortal("saml-groups");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle())).status).toBe(201);
    const access = await fetchPath("/v1/portal", {
      method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ access: { default: "public", methods: ["saml"], sections: [{ prefix: "/guides/auth", audiences: ["partners"] }] } }),
    });
    expect(access.status, await access.clone().text()).toBe(200);
    const target = "/p/saml-groups/guides/auth";
    const signIn = async (groups: string[]) => {
      const id = await startLogin("saml-groups", target);
      const res = await postAcs("saml-groups", base64Utf8(signXml(responseXml(assertionFor("saml-groups", id, { attributes: { groups } })), "Assertion", idpKey, idpCert)));
      expect(res.status).toBe(303);
      return sessionCookie(res)!;
    };
    const partner = await fetchPath(target, { headers: { cookie: await signIn(["Partners"]) } });
    expect(partner.status).toBe(200);
    expect(await partner.text()).toContain("Authentication");
    expect((await fetchPath(target, { headers: { cookie: await signIn(["staff"]) } })).status).toBe(404);
  });
});
