import { describe, expect, it } from "vitest";
import { authnRequestXml, newSamlId, redirectBindingUrl } from "./authn-request";
import { parseIdpMetadata, spMetadataXml } from "./metadata";
import { idpMetadataXml, inflateSamlRequest } from "./testing/idp";
import { NS, parseXml, SamlError } from "./xml";
import { makeSigningKeys } from "./testing/keys";

const { key: idpKey, cert: idpCert } = await makeSigningKeys("Portico test IdP");
const { key: otherKey, cert: otherCert } = await makeSigningKeys("Some other IdP");

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----|\s+/g, "");

function code(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SamlError) return error.code;
    throw error;
  }
  throw new Error("accepted");
}

describe("IdP metadata", () => {
  it("reads entityID, the HTTP-Redirect SSO URL and every signing certificate as PEM", () => {
    const meta = parseIdpMetadata(idpMetadataXml("https://idp.example/saml", "https://idp.example/sso?tenant=1", [idpCert, otherCert]));
    expect(meta.entityId).toBe("https://idp.example/saml");
    expect(meta.ssoUrl).toBe("https://idp.example/sso?tenant=1");
    expect(meta.certificates.map(pemBody)).toEqual([pemBody(idpCert), pemBody(otherCert)]);
  });

  it("ignores encryption-only keys and refuses metadata it cannot use, naming what is missing", () => {
    const good = idpMetadataXml("https://idp.example/saml", "https://idp.example/sso", [idpCert]);
    expect(code(() => parseIdpMetadata(good.replace('use="signing"', 'use="encryption"')))).toBe("metadata-no-certificate");
    expect(code(() => parseIdpMetadata(good.replace(/<md:SingleSignOnService Binding="[^"]+HTTP-Redirect"[^>]*\/>/, "")))).toBe("metadata-no-redirect-sso");
    expect(code(() => parseIdpMetadata(good.replaceAll("https://idp.example/sso", "http://idp.example/sso")))).toBe("metadata-url");
    expect(code(() => parseIdpMetadata(good.replace("IDPSSODescriptor", "SPSSODescriptor").replace("IDPSSODescriptor", "SPSSODescriptor")))).toBe("metadata-no-idp");
    expect(code(() => parseIdpMetadata(`<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]>${good}`))).toBe("xml-doctype");
    expect(code(() => parseIdpMetadata("<md:EntityDescriptor"))).toBe("xml-malformed");
  });
});

describe("SP side", () => {
  const sp = { entityId: "https://docs.example/p/acme/auth/saml/metadata", acsUrl: "https://docs.example/p/acme/auth/saml/acs" };

  it("SP metadata names the entity and the HTTP-POST ACS, and parses back", () => {
    const doc = parseXml(spMetadataXml(sp));
    expect(doc.documentElement!.getAttribute("entityID")).toBe(sp.entityId);
    const acs = doc.getElementsByTagNameNS(NS.md, "AssertionConsumerService")[0]!;
    expect(acs.getAttribute("Location")).toBe(sp.acsUrl);
    expect(acs.getAttribute("Binding")).toBe("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
  });

  it("the Redirect binding carries a deflated AuthnRequest the IdP can inflate, plus RelayState", async () => {
    const id = newSamlId();
    expect(id).toMatch(/^_[0-9a-f]{32}$/);
    const url = new URL(redirectBindingUrl("https://idp.example/sso?tenant=1", authnRequestXml(sp, "https://idp.example/sso?tenant=1", id, new Date()), "state1"));
    expect(url.searchParams.get("tenant")).toBe("1");
    expect(url.searchParams.get("RelayState")).toBe("state1");
    const request = parseXml(await inflateSamlRequest(url.searchParams.get("SAMLRequest")!)).documentElement!;
    expect(request.localName).toBe("AuthnRequest");
    expect(request.getAttribute("ID")).toBe(id);
    expect(request.getAttribute("AssertionConsumerServiceURL")).toBe(sp.acsUrl);
    expect(request.getElementsByTagNameNS(NS.saml, "Issuer")[0]!.textContent).toBe(sp.entityId);
  });
});
