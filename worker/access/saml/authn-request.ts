/**
 * @module SP-initiated sign-in: the AuthnRequest (saml-core-2.0-os §3.4.1) and the HTTP-Redirect binding URL that
 * carries it (saml-bindings-2.0-os §3.4.4: DEFLATE without zlib header, base64, URL-encoded, plus RelayState).
 * The request ID is what the IdP echoes as InResponseTo; the caller stores it (single use) before redirecting.
 */
import { deflateSync, strToU8 } from "fflate";
import { escapeXml, NS } from "./xml";
import { POST_BINDING, type SpConfig } from "./metadata";

/** A fresh SAML ID: `_` + 32 hex digits (128 random bits; an xsd:ID must not start with a digit). */
export function newSamlId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The AuthnRequest XML for `sp`, addressed to the IdP's `ssoUrl`, with `id` and `issueInstant`. */
export function authnRequestXml(sp: SpConfig, ssoUrl: string, id: string, issueInstant: Date): string {
  return `<samlp:AuthnRequest xmlns:samlp="${NS.samlp}" xmlns:saml="${NS.saml}" ID="${escapeXml(id)}" Version="2.0" ` +
    `IssueInstant="${issueInstant.toISOString()}" Destination="${escapeXml(ssoUrl)}" ` +
    `ProtocolBinding="${POST_BINDING}" AssertionConsumerServiceURL="${escapeXml(sp.acsUrl)}">` +
    `<saml:Issuer>${escapeXml(sp.entityId)}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/>` +
    `</samlp:AuthnRequest>`;
}

/** base64 of raw DEFLATE: the HTTP-Redirect binding's encoding of a message. */
export function deflateBase64(xml: string): string {
  const bytes = deflateSync(strToU8(xml));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * The URL the browser is redirected to: `ssoUrl` with `SAMLRequest` (and `RelayState` when given) appended to any
 * query the IdP's URL already has.
 */
export function redirectBindingUrl(ssoUrl: string, requestXml: string, relayState?: string): string {
  const url = new URL(ssoUrl);
  url.searchParams.append("SAMLRequest", deflateBase64(requestXml));
  if (relayState) url.searchParams.append("RelayState", relayState);
  return url.href;
}
