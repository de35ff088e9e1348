/**
 * @module A test identity provider: builds SAML Responses and signs them for real with xml-crypto (RSA-SHA256,
 * exclusive c14n) with keys made at run time (testing/keys.ts). Tests only; every knob is there so an
 * attack fixture can be one valid message with one thing changed.
 */
import { SignedXml } from "xml-crypto";
import { deflateBase64 } from "../authn-request";
import { escapeXml, NS } from "../xml";

export interface TestAssertion {
  responseId?: string;
  assertionId?: string;
  inResponseTo: string;
  /** Response Destination and SubjectConfirmationData Recipient (the ACS URL). */
  acsUrl: string;
  /** Audience (the SP entity ID). */
  audience: string;
  issuer: string;
  nameId: string;
  nameIdFormat?: string;
  /** Reference time; validity is `now - 1 min` … `now + 5 min` unless overridden. */
  now: Date;
  notBefore?: Date;
  notOnOrAfter?: Date;
  attributes?: Record<string, string[]>;
  status?: string;
  /** Destination and Recipient overrides (attacks). */
  destination?: string;
  recipient?: string;
  /** SubjectConfirmationData InResponseTo: `inResponseTo` unless given; null leaves it out (IdPs that omit it). */
  confirmationInResponseTo?: string | null;
  /** AuthnStatement SessionNotOnOrAfter, when the IdP bounds the session. */
  sessionNotOnOrAfter?: Date;
}

const iso = (d: Date) => d.toISOString();
/** A fresh message ID, as a real IdP gives every Response and Assertion. */
const freshId = () => `_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

/** An unsigned Response with one Assertion, every field from `a`. */
export function responseXml(a: TestAssertion): string {
  const issued = iso(a.now);
  const notBefore = iso(a.notBefore ?? new Date(a.now.getTime() - 60_000));
  const notOnOrAfter = iso(a.notOnOrAfter ?? new Date(a.now.getTime() + 300_000));
  const attrs = Object.entries(a.attributes ?? {}).map(([name, values]) =>
    `<saml:Attribute Name="${escapeXml(name)}">${values.map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`).join("")}</saml:Attribute>`).join("");
  return `<samlp:Response xmlns:samlp="${NS.samlp}" xmlns:saml="${NS.saml}" ID="${a.responseId ?? freshId()}" Version="2.0" IssueInstant="${issued}" ` +
    `Destination="${escapeXml(a.destination ?? a.acsUrl)}" InResponseTo="${escapeXml(a.inResponseTo)}">` +
    `<saml:Issuer>${escapeXml(a.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${a.status ?? "urn:oasis:names:tc:SAML:2.0:status:Success"}"/></samlp:Status>` +
    `<saml:Assertion ID="${a.assertionId ?? freshId()}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${escapeXml(a.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${a.nameIdFormat ?? "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"}">${escapeXml(a.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData ` +
    (a.confirmationInResponseTo === null ? "" : `InResponseTo="${escapeXml(a.confirmationInResponseTo ?? a.inResponseTo)}" `) + `Recipient="${escapeXml(a.recipient ?? a.acsUrl)}" NotOnOrAfter="${notOnOrAfter}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(a.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_s1"${a.sessionNotOnOrAfter ? ` SessionNotOnOrAfter="${iso(a.sessionNotOnOrAfter)}"` : ""}><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : "") +
    `</saml:Assertion></samlp:Response>`;
}

const TARGET_NS = { Response: NS.samlp, Assertion: NS.saml, EntityDescriptor: NS.md } as const;

/**
 * Signs the element with local name `target` in `xml` (a Response, an Assertion, or signed metadata's
 * EntityDescriptor), the signature placed after its Issuer (metadata: first child), as IdPs place it.
 */
export function signXml(xml: string, target: keyof typeof TARGET_NS, key: string, cert: string): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  const xpath = `//*[local-name(.)='${target}' and namespace-uri(.)='${TARGET_NS[target]}']`;
  sig.addReference({
    xpath,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  const location = target === "EntityDescriptor" ? { reference: xpath, action: "prepend" as const } : { reference: `${xpath}/*[local-name(.)='Issuer']`, action: "after" as const };
  sig.computeSignature(xml, { prefix: "ds", location });
  return sig.getSignedXml();
}

/** base64 of UTF-8, as the HTTP-POST binding carries a Response. */
export function base64Utf8(xml: string): string {
  let binary = "";
  for (const b of new TextEncoder().encode(xml)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** IdP metadata XML for `entityId` with `ssoUrl` and signing certificates (PEM). */
export function idpMetadataXml(entityId: string, ssoUrl: string, certs: string[]): string {
  const keys = certs.map((pem) => {
    const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
    return `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="${NS.ds}"><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
  }).join("");
  return `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="${NS.md}" entityID="${escapeXml(entityId)}"><md:IDPSSODescriptor protocolSupportEnumeration="${NS.samlp}">${keys}` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(ssoUrl)}"/>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escapeXml(ssoUrl)}"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
}

/** Decodes a Redirect-binding SAMLRequest back to XML (what the IdP does). */
export async function inflateSamlRequest(value: string): Promise<string> {
  const { inflateSync, strFromU8 } = await import("fflate");
  return strFromU8(inflateSync(Uint8Array.from(atob(value), (c) => c.charCodeAt(0))));
}

export { deflateBase64 };
