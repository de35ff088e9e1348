/**
 * The SAML attack fixtures posted to the real ACS in workerd (where xml-crypto runs on workerd's node:crypto):
 * every one is refused with 4xx and no session, and leaves the pending request usable by the genuine answer.
 */
import { describe, expect, it } from "vitest";
import { assertionWrappingAttacks, injectComment, responseWrappingAttacks } from "../../worker/access/saml/testing/attacks";
import { base64Utf8, responseXml, signXml, type TestAssertion } from "../../worker/access/saml/testing/idp";
import { IDP_ENTITY, postAcs, samlPortal, sessionOf, spOf, startLogin, IDP, OTHER_IDP } from "./harness";

const { key: idpKey, cert: idpCert } = IDP;
const { key: otherKey, cert: otherCert } = OTHER_IDP;

const SLUG = "saml-attacks";
const MINUTE = 60_000;

function message(id: string, extra: Partial<TestAssertion> = {}): TestAssertion {
  const sp = spOf(SLUG);
  return { inResponseTo: id, acsUrl: sp.acsUrl, audience: sp.entityId, issuer: IDP_ENTITY, nameId: "eve@acme.test", now: new Date(), attributes: { groups: ["staff"] }, ...extra };
}
const signed = (a: TestAssertion, target: "Assertion" | "Response" = "Assertion", key = idpKey, cert = idpCert) => signXml(responseXml(a), target, key, cert);

async function expectRefused(xml: string, what: string): Promise<void> {
  const res = await postAcs(SLUG, base64Utf8(xml));
  expect([400, 403], what).toContain(res.status);
  expect(res.headers.get("set-cookie"), what).toBeNull();
  expect(await res.text(), what).toContain("refused");
}

describe("SAML attacks through the ACS", () => {
  it("refuses wrapping, unsigned, foreign key, wrong audience/issuer/destination/recipient, expired; the genuine answer then works", async () => {
    await samlPortal(SLUG);
    const id = await startLogin(SLUG, "/p/saml-attacks/guides/x");
    const cases: Array<[string, string]> = [
      ...assertionWrappingAttacks(signed(message(id)), "admin@acme.test").map((a): [string, string] => [a.name, a.xml]),
      ...responseWrappingAttacks(signed(message(id), "Response"), "admin@acme.test").map((a): [string, string] => [a.name, a.xml]),
      ["unsigned assertion", responseXml(message(id))],
      ["signed by a key the portal does not trust", signed(message(id), "Assertion", otherKey, otherCert)],
      ["wrong audience", signed(message(id, { audience: "https://other.example/sp" }))],
      ["wrong issuer", signed(message(id, { issuer: "https://evil.example/idp" }))],
      ["wrong destination", signed(message(id, { destination: "https://evil.example/acs" }))],
      ["wrong recipient", signed(message(id, { recipient: "https://evil.example/acs" }))],
      ["expired assertion", signed(message(id, { notOnOrAfter: new Date(Date.now() - 10 * MINUTE) }))],
      ["assertion from the future", signed(message(id, { notBefore: new Date(Date.now() + 10 * MINUTE) }))],
      ["DOCTYPE with an entity", `<!DOCTYPE r [<!ENTITY x "y">]>${signed(message(id))}`],
    ];
    expect(cases.length).toBeGreaterThanOrEqual(20);
    for (const [name, xml] of cases) await expectRefused(xml, name);
    const genuine = await postAcs(SLUG, base64Utf8(signed(message(id))));
    expect(genuine.status).toBe(303);
    expect(((await sessionOf(SLUG, genuine)) as any).readerId).toBe("eve@acme.test");
  });

  it("comment injection in the NameID is refused (a comment can split a signed value; SAML messages carry none)", async () => {
    const id = await startLogin(SLUG, "/p/saml-attacks/");
    const xml = injectComment(signed(message(id, { nameId: "admin@acme.test.attacker.example" })), "admin@acme.test".length);
    expect(xml).toContain("admin@acme.test<!---->.attacker.example");
    await expectRefused(xml, "comment in NameID");
  });

  it("refuses a body that is not a SAML Response with 400, and an oversized post with 413", async () => {
    expect((await postAcs(SLUG, "%%%")).status).toBe(400);
    expect((await postAcs(SLUG, base64Utf8("<html/>"))).status).toBe(403);
    const tooLarge = await postAcs(SLUG, "A".repeat(300 * 1024));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain("262144 byte limit (256 KiB)");
  });
});
