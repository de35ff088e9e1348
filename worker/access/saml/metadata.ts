/**
 * @module SAML metadata: reads an identity provider's metadata XML (what "Custom SSO setup" receives through
 * `PUT /v1/portal/sso`) into the few facts the service provider needs, and writes the portal's own SP metadata.
 * Spec: SAML 2.0 Metadata (saml-metadata-2.0-os) §2.3-2.4; bindings from saml-bindings-2.0-os §3.4 and §3.5.
 */
import { attr, children, descendants, escapeXml, fullText, NS, parseXml, SamlError, type XmlElement } from "./xml";

export const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
export const POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/** What the service provider keeps of an IdP's metadata. */
export interface IdpMetadata {
  /** The IdP's entityID: the Issuer every Response and Assertion must name. */
  entityId: string;
  /** Where AuthnRequests go (the HTTP-Redirect SingleSignOnService Location). */
  ssoUrl: string;
  /** Signing certificates as PEM (`-----BEGIN CERTIFICATE-----`); a signature by any of them is accepted (key rollover). */
  certificates: string[];
}

/** Most signing certificates kept from one metadata document. */
const MAX_CERTIFICATES = 4;

/** A certificate's base64 body (whitespace removed) as PEM. @throws SamlError `metadata-certificate` when not base64 DER. */
export function certificateToPem(base64: string): string {
  const body = base64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length < 200 || body.length % 4 !== 0) {
    throw new SamlError("metadata-certificate", "an X509Certificate in the metadata is not a base64 DER certificate");
  }
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/** https URLs only, or plain http on localhost (local IdPs in development). */
function checkUrl(value: string | undefined, what: string): string {
  let url: URL;
  try {
    url = new URL(value ?? "");
  } catch {
    throw new SamlError("metadata-url", `${what} is not an absolute URL`);
  }
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) throw new SamlError("metadata-url", `${what} must be an https URL`);
  return url.href;
}

/** The one EntityDescriptor with an IDPSSODescriptor (the root, or one child of an EntitiesDescriptor). */
function idpEntity(root: XmlElement): { entity: XmlElement; idp: XmlElement } {
  const entities = root.namespaceURI === NS.md && root.localName === "EntitiesDescriptor" ? descendants(root, NS.md, "EntityDescriptor") : [root];
  const found = entities.flatMap((entity) => {
    if (entity.namespaceURI !== NS.md || entity.localName !== "EntityDescriptor") return [];
    const idp = children(entity, NS.md, "IDPSSODescriptor")[0];
    return idp ? [{ entity, idp }] : [];
  });
  if (found.length === 0) throw new SamlError("metadata-no-idp", "the metadata has no md:EntityDescriptor with an md:IDPSSODescriptor");
  if (found.length > 1) throw new SamlError("metadata-many-idps", "the metadata describes more than one identity provider; upload the one to use");
  return found[0]!;
}

/**
 * Parses IdP metadata XML.
 * @throws SamlError (`xml-*` from parseXml; `metadata-*` naming the missing or bad part) when it cannot be used.
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const { entity, idp } = idpEntity(parseXml(xml).documentElement!);
  const entityId = attr(entity, "entityID")?.trim();
  if (!entityId || entityId.length > 1024) throw new SamlError("metadata-entity-id", "md:EntityDescriptor has no entityID");
  const redirect = children(idp, NS.md, "SingleSignOnService").find((s) => attr(s, "Binding") === REDIRECT_BINDING);
  if (!redirect) throw new SamlError("metadata-no-redirect-sso", `md:IDPSSODescriptor has no SingleSignOnService with the HTTP-Redirect binding (${REDIRECT_BINDING})`);
  const ssoUrl = checkUrl(attr(redirect, "Location"), "the HTTP-Redirect SingleSignOnService Location");
  const certificates: string[] = [];
  for (const key of children(idp, NS.md, "KeyDescriptor")) {
    const use = attr(key, "use");
    if (use !== undefined && use !== "signing") continue; // "encryption" keys never sign
    for (const cert of descendants(key, NS.ds, "X509Certificate")) {
      const pem = certificateToPem(fullText(cert));
      if (!certificates.includes(pem)) certificates.push(pem);
    }
  }
  if (certificates.length === 0) throw new SamlError("metadata-no-certificate", "md:IDPSSODescriptor has no signing ds:X509Certificate");
  if (certificates.length > MAX_CERTIFICATES) throw new SamlError("metadata-certificate", `more than ${MAX_CERTIFICATES} signing certificates`);
  return { entityId, ssoUrl, certificates };
}

/** The service provider's own identity for one portal. */
export interface SpConfig {
  /** The SP entityID: the stable metadata URL `{origin}/p/{portal}/auth/saml/metadata`. */
  entityId: string;
  /** Assertion Consumer Service URL (HTTP-POST binding): `{origin}/p/{portal}/auth/saml/acs`. */
  acsUrl: string;
}

/**
 * The SP metadata document an IdP administrator imports: entityID, the HTTP-POST ACS, and the promise that
 * assertions must be signed (AuthnRequests are not: the Redirect binding's request signature is optional).
 */
export function spMetadataXml(sp: SpConfig): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="${NS.md}" entityID="${escapeXml(sp.entityId)}">
  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="${NS.samlp}">
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:AssertionConsumerService Binding="${POST_BINDING}" Location="${escapeXml(sp.acsUrl)}" index="0" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`;
}
