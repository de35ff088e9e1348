/**
 * @module Validation of a SAML Response posted to the ACS (HTTP-POST binding, saml-bindings-2.0-os §3.5; Web
 * Browser SSO profile, saml-profiles-2.0-os §4.1.4). Everything is refused unless proven: a signature over the
 * Response or over its Assertion by a configured IdP certificate, Status Success, Destination and Recipient = our
 * ACS, Audience = our entity, Issuer = the IdP, NotBefore/NotOnOrAfter within a bounded clock skew, and an
 * InResponseTo the caller then consumes (single use: a replay finds it gone).
 *
 * Signature wrapping is closed by shape, not by hoping: IDs are unique in the whole document, the message holds
 * exactly one Assertion and it is a direct child of the Response, a signature may sit only directly in the
 * Response or the Assertion and must reference its own parent, and the element whose signature was verified is
 * the very element read (no second lookup by ID or XPath).
 */
import type { Element } from "@xmldom/xmldom";
import { verifyEnvelopedSignature } from "./signature";
import { allElements, attr, children, descendants, fullText, NS, onlyChild, parseXml, SamlError } from "./xml";

/** Default tolerated clock difference between the IdP and us. */
export const DEFAULT_SKEW_SECONDS = 120;
/** Upper bound on the configurable skew: a larger one would let an expired assertion live on. */
export const MAX_SKEW_SECONDS = 300;
const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";

/** What the ACS checks a Response against. */
export interface ResponseExpectations {
  idp: { entityId: string; certificates: readonly string[] };
  sp: { entityId: string; acsUrl: string };
  now: Date;
  skewSeconds?: number;
}

/** A Response that passed every check. */
export interface ValidatedAssertion {
  /** The request this answers (our AuthnRequest ID); the caller must consume it exactly once. */
  inResponseTo: string;
  /** Subject NameID, whole text (comments cannot cut it short). */
  nameId: string;
  nameIdFormat?: string;
  /** Attribute values by Name (and by FriendlyName when it differs), whole text of each AttributeValue. */
  attributes: Record<string, string[]>;
  /** Which signature vouched for the assertion. */
  signedBy: "response" | "assertion";
  /** AuthnStatement SessionNotOnOrAfter, when the IdP bounds the session. */
  sessionNotOnOrAfter?: Date;
}

/** Decodes the form field `SAMLResponse` (base64 of UTF-8 XML). @throws SamlError `encoding`. */
export function decodeSamlResponse(field: string): string {
  const body = field.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0 || body.length === 0) throw new SamlError("encoding", "SAMLResponse is not base64");
  const binary = atob(body);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SamlError("encoding", "SAMLResponse is not UTF-8 XML");
  }
}

function instant(value: string | undefined, what: string): number {
  const ms = value === undefined ? NaN : Date.parse(value);
  if (!Number.isFinite(ms) || !/^\d{4}-\d\d-\d\dT/.test(value ?? "")) throw new SamlError("time", `${what} is not an xs:dateTime`);
  return ms;
}

/** Refuses duplicate ID/Id/id values anywhere: an ID must name one element, or a reference could name two. */
function checkUniqueIds(elements: Element[]): void {
  const seen = new Set<string>();
  for (const el of elements) {
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i)!;
      if (a.localName !== "ID" && a.localName !== "Id" && a.localName !== "id") continue;
      if (seen.has(a.value)) throw new SamlError("duplicate-id", `ID "${a.value}" appears more than once`);
      seen.add(a.value);
    }
  }
}

/** The message's signature over `el` (a direct ds:Signature child), validated; null when `el` is unsigned. */
function signatureOf(xml: string, el: Element, certificates: readonly string[]): boolean | null {
  const signature = onlyChild(el, NS.ds, "Signature");
  if (!signature) return null;
  return verifyEnvelopedSignature(xml, el, signature, certificates);
}

function checkIssuer(parent: Element, expected: string, required: boolean): void {
  const issuer = onlyChild(parent, NS.saml, "Issuer");
  if (!issuer) {
    if (required) throw new SamlError("issuer", `${parent.localName} has no Issuer`);
    return;
  }
  if (fullText(issuer) !== expected) throw new SamlError("issuer", `${parent.localName} Issuer "${fullText(issuer)}" is not the configured identity provider`);
}

/**
 * Validates a decoded SAML Response (see the module comment for every rule).
 * @throws SamlError naming the first check that failed; callers answer 4xx with its message.
 */
export function validateSamlResponse(xml: string, expect: ResponseExpectations): ValidatedAssertion {
  const skewMs = Math.min(expect.skewSeconds ?? DEFAULT_SKEW_SECONDS, MAX_SKEW_SECONDS) * 1000;
  const now = expect.now.getTime();
  const doc = parseXml(xml);
  const response = doc.documentElement!;
  if (response.namespaceURI !== NS.samlp || response.localName !== "Response") throw new SamlError("not-a-response", "the document is not a samlp:Response");
  if (attr(response, "Version") !== "2.0") throw new SamlError("version", "the Response is not SAML 2.0");
  const elements = allElements(doc);
  checkUniqueIds(elements);
  if (descendants(doc, NS.saml, "EncryptedAssertion").length) throw new SamlError("encrypted-assertion", "encrypted assertions are not supported: turn assertion encryption off for this service provider");
  const assertions = descendants(doc, NS.saml, "Assertion");
  if (assertions.length !== 1) throw new SamlError("assertion-count", `the Response must hold exactly one Assertion (found ${assertions.length})`);
  const assertion = assertions[0]!;
  if (assertion.parentNode !== response) throw new SamlError("assertion-position", "the Assertion must be a direct child of the Response");
  for (const sig of descendants(doc, NS.ds, "Signature")) {
    if (sig.parentNode !== response && sig.parentNode !== assertion) throw new SamlError("signature-position", "a ds:Signature may only sit directly in the Response or the Assertion");
  }

  // Signatures first: nothing below is believed before one of them holds.
  const responseSigned = signatureOf(xml, response, expect.idp.certificates);
  const assertionSigned = signatureOf(xml, assertion, expect.idp.certificates);
  if (responseSigned === false || assertionSigned === false) throw new SamlError("signature-invalid", "the signature does not verify with the identity provider's certificate");
  if (!responseSigned && !assertionSigned) throw new SamlError("unsigned", "neither the Response nor the Assertion is signed");

  // Response
  const code = descendants(response, NS.samlp, "StatusCode")[0];
  const status = code && attr(code, "Value");
  if (status !== SUCCESS) throw new SamlError("status", `the identity provider answered ${status ?? "no status"}`);
  if (attr(response, "Destination") !== expect.sp.acsUrl) throw new SamlError("destination", "the Response Destination is not this portal's ACS URL");
  const inResponseTo = attr(response, "InResponseTo");
  if (!inResponseTo) throw new SamlError("in-response-to", "the Response has no InResponseTo: only sign-ins started here are accepted");
  checkIssuer(response, expect.idp.entityId, false);

  // Assertion
  checkIssuer(assertion, expect.idp.entityId, true);
  const subject = onlyChild(assertion, NS.saml, "Subject");
  const nameIdEl = subject && onlyChild(subject, NS.saml, "NameID");
  const nameId = nameIdEl ? fullText(nameIdEl) : "";
  if (!nameIdEl || !nameId || nameId.length > 512) throw new SamlError("subject", "the Assertion has no usable Subject NameID");
  const confirmed = children(subject!, NS.saml, "SubjectConfirmation").some((sc) => {
    if (attr(sc, "Method") !== BEARER) return false;
    const data = onlyChild(sc, NS.saml, "SubjectConfirmationData");
    if (!data || attr(data, "Recipient") !== expect.sp.acsUrl) return false;
    const reply = attr(data, "InResponseTo");
    if (reply !== undefined && reply !== inResponseTo) return false;
    const notBefore = attr(data, "NotBefore");
    if (notBefore !== undefined && instant(notBefore, "SubjectConfirmationData NotBefore") > now + skewMs) return false;
    return instant(attr(data, "NotOnOrAfter"), "SubjectConfirmationData NotOnOrAfter") > now - skewMs;
  });
  if (!confirmed) throw new SamlError("subject-confirmation", "no bearer SubjectConfirmation names this ACS as Recipient, this request, and an unexpired NotOnOrAfter");

  const conditions = onlyChild(assertion, NS.saml, "Conditions");
  if (!conditions) throw new SamlError("conditions", "the Assertion has no Conditions (an Audience is required)");
  const notBefore = attr(conditions, "NotBefore");
  if (notBefore !== undefined && instant(notBefore, "Conditions NotBefore") > now + skewMs) throw new SamlError("not-yet-valid", "the Assertion is not valid yet (Conditions NotBefore)");
  const notOnOrAfter = attr(conditions, "NotOnOrAfter");
  if (notOnOrAfter !== undefined && instant(notOnOrAfter, "Conditions NotOnOrAfter") <= now - skewMs) throw new SamlError("expired", "the Assertion has expired (Conditions NotOnOrAfter)");
  const restrictions = children(conditions, NS.saml, "AudienceRestriction");
  if (restrictions.length === 0) throw new SamlError("audience", "the Assertion has no AudienceRestriction");
  for (const restriction of restrictions) {
    if (!children(restriction, NS.saml, "Audience").some((a) => fullText(a) === expect.sp.entityId)) {
      throw new SamlError("audience", "the Assertion's Audience is not this portal's service provider");
    }
  }

  const attributes: Record<string, string[]> = {};
  for (const statement of children(assertion, NS.saml, "AttributeStatement")) {
    for (const attribute of children(statement, NS.saml, "Attribute")) {
      const values = children(attribute, NS.saml, "AttributeValue").map(fullText);
      for (const key of new Set([attr(attribute, "Name"), attr(attribute, "FriendlyName")])) {
        if (key) (attributes[key] ??= []).push(...values);
      }
    }
  }
  const authn = children(assertion, NS.saml, "AuthnStatement")[0];
  const sessionEnd = authn && attr(authn, "SessionNotOnOrAfter");
  return {
    inResponseTo,
    nameId,
    ...(attr(nameIdEl, "Format") ? { nameIdFormat: attr(nameIdEl, "Format") } : {}),
    attributes,
    signedBy: responseSigned ? "response" : "assertion",
    ...(sessionEnd ? { sessionNotOnOrAfter: new Date(instant(sessionEnd, "SessionNotOnOrAfter")) } : {}),
  };
}
