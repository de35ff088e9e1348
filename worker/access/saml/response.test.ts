import { describe, expect, it } from "vitest";
import { identityFromAssertion } from "./attributes";
import { decodeSamlResponse, validateSamlResponse, type ResponseExpectations } from "./response";
import { assertionWrappingAttacks, injectComment, responseWrappingAttacks } from "./testing/attacks";
import { base64Utf8, responseXml, signXml, type TestAssertion } from "./testing/idp";
import { SamlError } from "./xml";
import { makeSigningKeys } from "./testing/keys";

const { key: idpKey, cert: idpCert } = await makeSigningKeys("Portico test IdP");
const { key: otherKey, cert: otherCert } = await makeSigningKeys("Some other IdP");

const SP = { entityId: "https://docs.example/p/acme/auth/saml/metadata", acsUrl: "https://docs.example/p/acme/auth/saml/acs" };
const IDP = "https://idp.example/saml";
const NOW = new Date("2026-11-23T12:00:00Z");
const expectations: ResponseExpectations = { idp: { entityId: IDP, certificates: [idpCert] }, sp: SP, now: NOW };
const base: TestAssertion = {
  inResponseTo: "_req1", acsUrl: SP.acsUrl, audience: SP.entityId, issuer: IDP, nameId: "ada@acme.example", now: NOW,
  attributes: { groups: ["partners", "beta"], "vars.api_key": ["sk_live_ada"], department: ["R&D <core>"] },
};
const signedAssertion = (a: Partial<TestAssertion> = {}, key = idpKey, cert = idpCert) => signXml(responseXml({ ...base, ...a }), "Assertion", key, cert);
const signedResponse = (a: Partial<TestAssertion> = {}) => signXml(responseXml({ ...base, ...a }), "Response", idpKey, idpCert);

/** The SamlError code `xml` is refused with (fails the test when it is accepted or fails otherwise). */
function refusal(xml: string, expect_: ResponseExpectations = expectations): string {
  try {
    validateSamlResponse(xml, expect_);
  } catch (error) {
    if (error instanceof SamlError) return error.code;
    throw error;
  }
  throw new Error("accepted");
}

describe("validateSamlResponse: genuine messages", () => {
  it("accepts a signed Assertion and reads NameID, attributes and which signature vouched", () => {
    const result = validateSamlResponse(decodeSamlResponse(base64Utf8(signedAssertion())), expectations);
    expect(result).toMatchObject({ inResponseTo: "_req1", nameId: "ada@acme.example", signedBy: "assertion" });
    expect(result.attributes.groups).toEqual(["partners", "beta"]);
    expect(result.attributes.department).toEqual(["R&D <core>"]);
  });

  it("accepts a signed Response around an unsigned Assertion, and both signed", () => {
    expect(validateSamlResponse(signedResponse(), expectations).signedBy).toBe("response");
    const both = signXml(signedAssertion(), "Response", idpKey, idpCert);
    expect(validateSamlResponse(both, expectations).nameId).toBe("ada@acme.example");
  });

  it("accepts any configured certificate (key rollover) and tolerates bounded clock skew", () => {
    expect(validateSamlResponse(signedAssertion({}, otherKey, otherCert), { ...expectations, idp: { entityId: IDP, certificates: [idpCert, otherCert] } }).nameId).toBe("ada@acme.example");
    const justExpired = signedAssertion({ notOnOrAfter: new Date(NOW.getTime() - 60_000) });
    expect(validateSamlResponse(justExpired, expectations).nameId).toBe("ada@acme.example");
  });

  it("maps attributes to the reader identity: groups → audiences, vars.* and named attributes → variables", () => {
    const result = validateSamlResponse(signedAssertion(), expectations);
    expect(identityFromAssertion(result)).toEqual({
      readerId: "ada@acme.example", email: "ada@acme.example", audiences: ["partners", "beta"], variables: { api_key: "sk_live_ada" }, method: "saml",
    });
    const mixed = { ...result, attributes: { ...result.attributes, groups: ["Partners", "partners", "Sales Team", "beta"] } };
    expect(identityFromAssertion(mixed).audiences).toEqual(["partners", "beta"]);
    expect(identityFromAssertion(result, { groupsAttribute: "none", variables: { dept: "department" } })).toMatchObject({
      audiences: [], variables: { api_key: "sk_live_ada", dept: "R&D <core>" },
    });
  });
});

describe("validateSamlResponse: attacks and bad messages are refused", () => {
  it("refuses an unsigned message", () => {
    expect(refusal(responseXml(base))).toBe("unsigned");
  });

  it("refuses a signature by another key, even one carried in the message's own KeyInfo", () => {
    expect(refusal(signedAssertion({}, otherKey, otherCert))).toBe("signature-invalid");
  });

  it.each([
    ["wrong audience", { audience: "https://other.example/sp" }, "audience"],
    ["expired assertion", { notOnOrAfter: new Date(NOW.getTime() - 10 * 60_000) }, "subject-confirmation"],
    ["not yet valid", { notBefore: new Date(NOW.getTime() + 10 * 60_000) }, "not-yet-valid"],
    ["wrong issuer", { issuer: "https://evil.example/idp" }, "issuer"],
    ["wrong destination", { destination: "https://evil.example/acs" }, "destination"],
    ["wrong recipient", { recipient: "https://evil.example/acs" }, "subject-confirmation"],
    ["failed status", { status: "urn:oasis:names:tc:SAML:2.0:status:Responder" }, "status"],
  ] as const)("refuses a signed message with %s", (_name, change, code) => {
    expect(refusal(signedAssertion(change))).toBe(code);
    expect(refusal(signedResponse(change))).toBe(code);
  });

  it("refuses an expired Conditions window even when the bearer confirmation is still open", () => {
    const xml = signXml(responseXml(base).replace(/(<saml:Conditions NotBefore="[^"]+" NotOnOrAfter=")[^"]+/, `$1${new Date(NOW.getTime() - 3_600_000).toISOString()}`), "Assertion", idpKey, idpCert);
    expect(refusal(xml)).toBe("expired");
  });

  it("refuses an InResponseTo in the bearer confirmation that differs from the Response's", () => {
    const xml = signXml(responseXml(base).replace(/(SubjectConfirmationData InResponseTo=")_req1/, "$1_other"), "Assertion", idpKey, idpCert);
    expect(refusal(xml)).toBe("subject-confirmation");
  });

  it.each(assertionWrappingAttacks(signedAssertion(), "admin@acme.example").map((a) => [a.name, a.xml]))("refuses wrapping (%s)", (_name, xml) => {
    expect(xml).toContain("admin@acme.example");
    expect(refusal(xml)).toMatch(/^(assertion-count|assertion-position|duplicate-id|signature-invalid|signature-reference|signature-position)$/);
  });

  it.each(responseWrappingAttacks(signedResponse(), "admin@acme.example").map((a) => [a.name, a.xml]))("refuses Response wrapping (%s)", (_name, xml) => {
    expect(refusal(xml)).toMatch(/^(assertion-count|assertion-position|duplicate-id|signature-invalid|signature-reference|signature-position)$/);
  });

  it("refuses a comment injected into the signed NameID (the signature alone would still verify: c14n drops comments)", () => {
    const signed = signedAssertion({ nameId: "admin@acme.example.evil.test" });
    const injected = injectComment(signed, "admin@acme.example".length);
    expect(injected).toContain("admin@acme.example<!---->.evil.test");
    expect(refusal(injected)).toBe("xml-comment");
  });

  it("refuses DOCTYPE and entity declarations before parsing (XXE, entity expansion)", () => {
    const xml = signedAssertion();
    expect(refusal(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]>${xml}`)).toBe("xml-doctype");
    expect(refusal(xml.replace("ada@acme.example", "&xxe;"))).toBe("xml-malformed");
  });

  it("refuses SHA-1 signatures, foreign documents, broken XML and bad base64", () => {
    const sha1 = signedAssertion().replace("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2000/09/xmldsig#rsa-sha1");
    expect(refusal(sha1)).toBe("signature-algorithm");
    expect(refusal("<foo/>")).toBe("not-a-response");
    expect(refusal("<samlp:Response")).toBe("xml-malformed");
    expect(() => decodeSamlResponse("not base64!")).toThrow(SamlError);
  });
});
