/**
 * Issue 36 through the real routes in workerd, with an IdP that signs for real (keys made at run time): the
 * xmldom parser differential from each of three kinds of IdP-signed XML, assertion replay, login CSRF (a sign-in
 * completed in a browser that did not start it), the rate limit on sign-in starts, SessionNotOnOrAfter, and
 * revocation of sessions (sign-out, access changes, a new IdP, "sign every reader out").
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assertionOf, scriptDifferentialAttack } from "../../worker/access/saml/testing/attacks";
import { base64Utf8, idpMetadataXml, responseXml, signXml, type TestAssertion } from "../../worker/access/saml/testing/idp";
import { fetchPath, IDP, IDP_ENTITY, IDP_SSO, postAcs, samlPortal, sessionCookie, spOf, startLogin } from "./harness";

const MINUTE = 60_000;

function message(slug: string, inResponseTo: string, extra: Partial<TestAssertion> = {}): TestAssertion {
  const sp = spOf(slug);
  return { inResponseTo, acsUrl: sp.acsUrl, audience: sp.entityId, issuer: IDP_ENTITY, nameId: "eve@acme.test", now: new Date(), attributes: { groups: ["staff"] }, ...extra };
}
const signedAssertion = (a: TestAssertion) => signXml(responseXml(a), "Assertion", IDP.key, IDP.cert);

async function expectRefused(res: Response, what: string): Promise<string> {
  expect([400, 403], what).toContain(res.status);
  expect(res.headers.getSetCookie().some((c) => c.startsWith("portico_session=")), what).toBe(false);
  return res.text();
}

describe("the xmldom parser differential (a signed element hidden in an XHTML script)", () => {
  it("is refused whatever the IdP-signed XML: an assertion for another SP, signed metadata, a signed Response", async () => {
    const slug = "saml-diff";
    await samlPortal(slug);
    const id = await startLogin(slug, `/p/${slug}/`);
    const forged = assertionOf(responseXml(message(slug, id, { nameId: "admin@acme.test", attributes: { groups: ["admins", "staff"] } })));
    const outer = responseXml({ ...message(slug, id), responseId: "_outer" });
    const sources = {
      "an assertion the IdP signed for another service provider": signXml(responseXml({
        ...message(slug, "_theirs", { nameId: "bob@acme.test" }), acsUrl: "https://other.example/acs", audience: "https://other.example/sp", assertionId: "_old1",
      }), "Assertion", IDP.key, IDP.cert),
      "the IdP's signed federation metadata": signXml(
        idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]).replace("<md:EntityDescriptor ", '<md:EntityDescriptor ID="_meta1" '), "EntityDescriptor", IDP.key, IDP.cert),
      "a Response the IdP signed": signXml(responseXml(message(slug, "_theirs2", { responseId: "_signedresp", assertionId: "_a2" })), "Response", IDP.key, IDP.cert),
    };
    for (const [source, signed] of Object.entries(sources)) {
      const attack = scriptDifferentialAttack(signed, forged, outer);
      expect(attack.xml, source).toContain("</script >");
      const body = await expectRefused(await postAcs(slug, base64Utf8(attack.xml)), source);
      expect(body, source).toContain("refused");
    }
    // The pending request was never consumed by the refusals: the genuine answer still signs in.
    const genuine = await postAcs(slug, base64Utf8(signedAssertion(message(slug, id))));
    expect(genuine.status).toBe(303);
  });
});

describe("assertion replay", () => {
  it("refuses an assertion that names no request when only it is signed (its InResponseTo would be unsigned)", async () => {
    const slug = "saml-norequest";
    await samlPortal(slug);
    const first = await startLogin(slug, `/p/${slug}/`);
    const bare = signedAssertion(message(slug, first, { confirmationInResponseTo: null }));
    expect(await expectRefused(await postAcs(slug, base64Utf8(bare)), "no InResponseTo")).toContain("does not name the request");
    // The attack: the same signed assertion under a Response whose (unsigned) InResponseTo is edited to a new request.
    const second = await startLogin(slug, `/p/${slug}/`);
    await expectRefused(await postAcs(slug, base64Utf8(bare.replace(`InResponseTo="${first}"`, `InResponseTo="${second}"`))), "edited InResponseTo");
  });

  it("remembers every accepted assertion's ID until it expires: a signed Response carrying it again is refused", async () => {
    const slug = "saml-replaycache";
    await samlPortal(slug);
    const first = await startLogin(slug, `/p/${slug}/`);
    expect((await postAcs(slug, base64Utf8(signXml(responseXml(message(slug, first, { assertionId: "_same" })), "Response", IDP.key, IDP.cert)))).status).toBe(303);
    const second = await startLogin(slug, `/p/${slug}/`);
    const again = await postAcs(slug, base64Utf8(signXml(responseXml(message(slug, second, { assertionId: "_same", responseId: "_r2" })), "Response", IDP.key, IDP.cert)));
    expect(await expectRefused(again, "replayed assertion ID")).toContain("used already");
    const row = await env.DB.prepare("SELECT expires_at AS e FROM used_tokens WHERE token_key = 'saml:_same'").first<{ e: number }>();
    expect(row!.e).toBeGreaterThan(Date.now() + 4 * MINUTE); // NotOnOrAfter (+5 min) plus the skew
    expect(row!.e).toBeLessThan(Date.now() + 10 * MINUTE);
  });
});

describe("sign-in is bound to the browser that started it", () => {
  it("refuses a Response posted without the start's cookie (login CSRF) or with another start's, then accepts the real browser", async () => {
    const slug = "saml-csrf";
    await samlPortal(slug);
    // The attacker starts a sign-in in their own browser and gets a genuine Response for their own account…
    const attackers = await startLogin(slug, `/p/${slug}/`);
    const theirResponse = base64Utf8(signedAssertion(message(slug, attackers, { nameId: "mallory@acme.test" })));
    // …and makes the victim's browser post it: no cookie at all, or the victim's own start's cookie.
    expect(await expectRefused(await postAcs(slug, theirResponse, { cookie: null }), "no cookie")).toContain("not started in this browser");
    await startLogin(slug, `/p/${slug}/`); // the victim's own, later start: the jar now holds its cookie
    expect(await expectRefused(await postAcs(slug, theirResponse), "another start's cookie")).toContain("not started in this browser");
    // The attacker's own browser (its cookie) still completes its own sign-in: nothing was consumed by the refusals.
    const own = await postAcs(slug, theirResponse, { cookie: `portico_saml_request=${attackers}` });
    expect(own.status).toBe(303);
  });

  it("sets the binding cookie HttpOnly on the SAML path only, and clears it once used", async () => {
    const slug = "saml-cookie";
    await samlPortal(slug);
    const res = await fetchPath(`/p/${slug}/auth/saml/login`);
    const set = res.headers.getSetCookie().find((c) => c.startsWith("portico_saml_request="))!;
    expect(set).toContain(`Path=/p/${slug}/auth/saml/`);
    expect(set).toContain("HttpOnly");
    expect(set).toMatch(/Max-Age=600/);
    const id = decodeURIComponent(/^portico_saml_request=([^;]+)/.exec(set)![1]!);
    const acs = await postAcs(slug, base64Utf8(signedAssertion(message(slug, id))), { cookie: `portico_saml_request=${id}` });
    expect(acs.status).toBe(303);
    expect(acs.headers.getSetCookie().some((c) => /^portico_saml_request=;/.test(c))).toBe(true);
  });

  it("rate-limits sign-in starts per client: the 61st in 15 minutes answers 429 with Retry-After, and writes no row", async () => {
    const slug = "saml-limit";
    await samlPortal(slug);
    const portal = await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>();
    const count = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM saml_requests WHERE portal_id = ?").bind(portal!.id).first<{ n: number }>())!.n;
    for (let i = 0; i < 60; i++) expect((await fetchPath(`/p/${slug}/auth/saml/login`, { headers: { "cf-connecting-ip": `198.51.100.${i}` } })).status).toBe(302);
    expect(await count()).toBe(60);
    // A client-sent CF-Connecting-IP is not believed locally: every local start is one client.
    const over = await fetchPath(`/p/${slug}/auth/saml/login`, { headers: { "cf-connecting-ip": "203.0.113.99" } });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await count()).toBe(60);
  });
});

describe("SessionNotOnOrAfter", () => {
  it("refuses a sign-in whose IdP session already ended, and ends the cookie with the IdP's session", async () => {
    const slug = "saml-snoa";
    await samlPortal(slug);
    const past = await startLogin(slug, `/p/${slug}/`);
    const ended = await postAcs(slug, base64Utf8(signedAssertion(message(slug, past, { sessionNotOnOrAfter: new Date(Date.now() - MINUTE) }))));
    expect(await expectRefused(ended, "ended")).toContain("SessionNotOnOrAfter");
    const soon = await startLogin(slug, `/p/${slug}/`);
    const res = await postAcs(slug, base64Utf8(signedAssertion(message(slug, soon, { sessionNotOnOrAfter: new Date(Date.now() + 30 * MINUTE) }))));
    expect(res.status).toBe(303);
    const maxAge = Number(/Max-Age=(\d+)/.exec(res.headers.getSetCookie().find((c) => c.startsWith("portico_session="))!)![1]);
    expect(maxAge).toBeGreaterThan(28 * 60);
    expect(maxAge).toBeLessThanOrEqual(30 * 60);
  });
});

describe("revocation: a copied cookie stops opening gated pages", () => {
  const slug = "saml-revoke";
  const gated = `/p/${slug}/`;
  async function signedIn(nameId: string): Promise<string> {
    const id = await startLogin(slug, gated);
    const res = await postAcs(slug, base64Utf8(signedAssertion(message(slug, id, { nameId }))));
    expect(res.status).toBe(303);
    return sessionCookie(res)!;
  }
  /** Whether `cookie` still opens the private portal's home (a signed-out reader is sent to sign in: 303). */
  const opens = async (cookie: string) => (await fetchPath(gated, { headers: { cookie } })).status !== 303;

  it("after sign-out, a change of access settings, a new IdP, and signing one reader or every reader out", async () => {
    const token = await samlPortal(slug);
    const patch = (access: unknown) => fetchPath("/v1/portal", { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access }) });
    expect((await patch({ default: "private", methods: ["saml"] })).status).toBe(200);

    expect((await fetchPath(gated)).status, "signed out").toBe(303);
    const ada = await signedIn("ada@acme.test");
    expect(await opens(ada), "signed in").toBe(true);
    const out = await fetchPath(`/p/${slug}/auth/signout`, { method: "POST", headers: { cookie: ada, origin: "http://portico.test", "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(out.status).toBe(303);
    expect(await opens(ada), "after sign-out").toBe(false); // the copy the browser was told to delete
    expect(await opens(await signedIn("ada@acme.test"))).toBe(true); // signing in again works at once

    const beforePatch = await signedIn("bob@acme.test");
    expect((await patch({ sections: [{ prefix: "/guides/partners", audiences: ["partners"] }] })).status).toBe(200);
    expect(await opens(beforePatch), "after an access change").toBe(false);

    const beforeIdp = await signedIn("bob@acme.test");
    const put = await fetchPath("/v1/portal/sso", { method: "PUT", headers: { authorization: `Bearer ${token}` }, body: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]) });
    expect(put.status).toBe(200);
    expect(await opens(beforeIdp), "after a new IdP").toBe(false);

    const [carol, dave] = [await signedIn("carol@acme.test"), await signedIn("dave@acme.test")];
    const one = await fetchPath(`/v1/portal/sessions?reader=${encodeURIComponent("carol@acme.test")}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(one.status).toBe(200);
    expect([await opens(carol), await opens(dave)]).toEqual([false, true]);
    const all = await fetchPath("/v1/portal/sessions", { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(all.status).toBe(200);
    expect(await opens(dave), "after every reader").toBe(false);
    expect((await fetchPath("/v1/portal/sessions", { method: "DELETE" })).status).toBe(401);
  });
});
