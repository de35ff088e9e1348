/**
 * @module Validation of a SAML Response posted to the ACS (HTTP-POST binding, saml-bindings-2.0-os §3.5; Web
 * Browser SSO profile, saml-profiles-2.0-os §4.1.4). Everything is refused unless proven: a signature over the
 * Response or over its Assertion by a configured IdP certificate, Status Success, Destination and Recipient = our
 * ACS, Audience = our entity, Issuer = the IdP, NotBefore/NotOnOrAfter within a bounded clock skew, an IdP session
 * (SessionNotOnOrAfter) not yet ended, and an InResponseTo the caller then consumes (single use: a replay finds
 * it gone).
 *
 * Claims are read only from what was verified: the signed reference xml-crypto digested (the Assertion, or the
 * whole Response when that is what the IdP signed), re-parsed strictly on its own. Nothing the signature did not
 * cover is believed; the unsigned envelope (Destination, Status, InResponseTo of an unsigned Response) is only
 * checked, and an InResponseTo is accepted only when something signed names it (the Response, or the
 * Assertion's SubjectConfirmationData), so an unsigned one cannot be edited to fit a new request.
 *
 * Signature wrapping is closed by shape as well: only SAML and XML-DSig elements, no comments or processing
 * instructions, IDs unique in the whole document, exactly one Assertion and it a direct child of the Response, a
 * signature only directly in the Response or the Assertion and referencing its own parent.
 */
import { verifyEnvelopedSignature } from "./signature";
import { allElements, attr, checkSamlVocabulary, children, descendants, fullText, NS, onlyChild, parseXml, SamlError, type XmlElement } from "./xml";

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
  /** The Assertion's ID: remembered until `replayUntil` so the same assertion opens no second session. */
  assertionId: string;
  /** Until when the assertion could still be accepted (its latest NotOnOrAfter plus the clock skew). */
  replayUntil: Date;
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
function checkUniqueIds(elements: XmlElement[]): void {
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

/**
 * The signed copy of `el` (its direct ds:Signature verified): the signed reference re-parsed strictly, which must
 * be `el`'s own element (same name and ID). Null when `el` is unsigned.
 * @throws SamlError `signature-invalid` when a signature is there but no configured certificate verifies it.
 */
function signedCopy(xml: string, el: XmlElement, certificates: readonly string[]): XmlElement | null {
  const signature = onlyChild(el, NS.ds, "Signature");
  if (!signature) return null;
  const reference = verifyEnvelopedSignature(xml, el, signature, certificates);
  if (reference === null) throw new SamlError("signature-invalid", "the signature does not verify with the identity provider's certificate");
  const copy = parseXml(reference).documentElement!;
  checkSamlVocabulary(copy);
  if (copy.namespaceURI !== el.namespaceURI || copy.localName !== el.localName || attr(copy, "ID") !== attr(el, "ID")) {
    throw new SamlError("signature-reference", `the signed reference is not the ${el.localName} that holds the signature`);
  }
  return copy;
}

function checkIssuer(parent: XmlElement, expected: string, required: boolean): void {
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
  const envelope = doc.documentElement!;
  if (envelope.namespaceURI !== NS.samlp || envelope.localName !== "Response") throw new SamlError("not-a-response", "the document is not a samlp:Response");
  if (descendants(doc, NS.saml, "EncryptedAssertion").length) throw new SamlError("encrypted-assertion", "encrypted assertions are not supported: turn assertion encryption off for this service provider");
  checkSamlVocabulary(doc);
  checkUniqueIds(allElements(doc));
  const assertions = descendants(doc, NS.saml, "Assertion");
  if (assertions.length !== 1) throw new SamlError("assertion-count", `the Response must hold exactly one Assertion (found ${assertions.length})`);
  const rawAssertion = assertions[0]!;
  if (rawAssertion.parentNode !== envelope) throw new SamlError("assertion-position", "the Assertion must be a direct child of the Response");
  for (const sig of descendants(doc, NS.ds, "Signature")) {
    if (sig.parentNode !== envelope && sig.parentNode !== rawAssertion) throw new SamlError("signature-position", "a ds:Signature may only sit directly in the Response or the Assertion");
  }

  // Signatures first: nothing below is believed before one holds, and then only the signed copies are read.
  const signedResponse = signedCopy(xml, envelope, expect.idp.certificates);
  const signedAssertion = signedCopy(xml, rawAssertion, expect.idp.certificates);
  if (!signedResponse && !signedAssertion) throw new SamlError("unsigned", "neither the Response nor the Assertion is signed");
  const response = signedResponse ?? envelope;
  const assertion = signedAssertion ?? onlyAssertion(signedResponse!);

  // Response
  if (attr(response, "Version") !== "2.0") throw new SamlError("version", "the Response is not SAML 2.0");
  const code = descendants(response, NS.samlp, "StatusCode")[0];
  const status = code && attr(code, "Value");
  if (status !== SUCCESS) throw new SamlError("status", `the identity provider answered ${status ?? "no status"}`);
  if (attr(response, "Destination") !== expect.sp.acsUrl) throw new SamlError("destination", "the Response Destination is not this portal's ACS URL");
  const inResponseTo = attr(response, "InResponseTo");
  if (!inResponseTo) throw new SamlError("in-response-to", "the Response has no InResponseTo: only sign-ins started here are accepted");
  checkIssuer(response, expect.idp.entityId, false);

  // Assertion
  const assertionId = attr(assertion, "ID");
  if (!assertionId) throw new SamlError("assertion-id", "the Assertion has no ID");
  checkIssuer(assertion, expect.idp.entityId, true);
  const subject = onlyChild(assertion, NS.saml, "Subject");
  const nameIdEl = subject && onlyChild(subject, NS.saml, "NameID");
  const nameId = nameIdEl ? fullText(nameIdEl) : "";
  if (!nameIdEl || !nameId || nameId.length > 512) throw new SamlError("subject", "the Assertion has no usable Subject NameID");
  const confirmation = children(subject!, NS.saml, "SubjectConfirmation").map((sc) => {
    if (attr(sc, "Method") !== BEARER) return undefined;
    const data = onlyChild(sc, NS.saml, "SubjectConfirmationData");
    if (!data || attr(data, "Recipient") !== expect.sp.acsUrl) return undefined;
    const reply = attr(data, "InResponseTo");
    if (reply !== undefined && reply !== inResponseTo) return undefined;
    const notBefore = attr(data, "NotBefore");
    if (notBefore !== undefined && instant(notBefore, "SubjectConfirmationData NotBefore") > now + skewMs) return undefined;
    const until = instant(attr(data, "NotOnOrAfter"), "SubjectConfirmationData NotOnOrAfter");
    return until > now - skewMs ? { until, namesRequest: reply !== undefined } : undefined;
  }).find((c) => c !== undefined);
  if (!confirmation) throw new SamlError("subject-confirmation", "no bearer SubjectConfirmation names this ACS as Recipient, this request, and an unexpired NotOnOrAfter");
  // saml-profiles-2.0-os §4.1.4.2: an answer to an AuthnRequest names it in SubjectConfirmationData. Without that
  // (and without a signed Response) the InResponseTo read above is unsigned and anyone could rewrite it.
  if (!signedResponse && !confirmation.namesRequest) {
    throw new SamlError("in-response-to-unsigned", "the signed Assertion does not name the request it answers (SubjectConfirmationData InResponseTo)");
  }

  const conditions = onlyChild(assertion, NS.saml, "Conditions");
  if (!conditions) throw new SamlError("conditions", "the Assertion has no Conditions (an Audience is required)");
  const notBefore = attr(conditions, "NotBefore");
  if (notBefore !== undefined && instant(notBefore, "Conditions NotBefore") > now + skewMs) throw new SamlError("not-yet-valid", "the Assertion is not valid yet (Conditions NotBefore)");
  const notOnOrAfter = attr(conditions, "NotOnOrAfter");
  const conditionsUntil = notOnOrAfter === undefined ? undefined : instant(notOnOrAfter, "Conditions NotOnOrAfter");
  if (conditionsUntil !== undefined && conditionsUntil <= now - skewMs) throw new SamlError("expired", "the Assertion has expired (Conditions NotOnOrAfter)");
  const restrictions = children(conditions, NS.saml, "AudienceRestriction");
  if (restrictions.length === 0) throw new SamlError("audience", "the Assertion has no AudienceRestriction");
  for (const restriction of restrictions) {
    if (!children(restriction, NS.saml, "Audience").some((a) => fullText(a) === expect.sp.entityId)) {
      throw new SamlError("audience", "the Assertion's Audience is not this portal's service provider");
    }
  }

  const authn = children(assertion, NS.saml, "AuthnStatement")[0];
  const sessionEnd = authn && attr(authn, "SessionNotOnOrAfter");
  const sessionEndMs = sessionEnd ? instant(sessionEnd, "SessionNotOnOrAfter") : undefined;
  // saml-core-2.0-os §2.7.2: the IdP's session ended; no session of ours may outlive it, so none is opened.
  if (sessionEndMs !== undefined && sessionEndMs <= now) throw new SamlError("session-ended", "the identity provider says this sign-in's session has already ended (SessionNotOnOrAfter)");
  return {
    inResponseTo,
    nameId,
    ...(attr(nameIdEl, "Format") ? { nameIdFormat: attr(nameIdEl, "Format") } : {}),
    attributes: attributesOf(assertion),
    signedBy: signedResponse ? "response" : "assertion",
    ...(sessionEndMs !== undefined ? { sessionNotOnOrAfter: new Date(sessionEndMs) } : {}),
    assertionId,
    // The bearer confirmation bounds acceptance (the Conditions may bound it earlier, never later).
    replayUntil: new Date(Math.min(confirmation.until, conditionsUntil ?? Infinity) + skewMs),
  };
}

/** The only Assertion of a (signed) Response. @throws SamlError `assertion-count`. */
function onlyAssertion(response: XmlElement): XmlElement {
  const found = children(response, NS.saml, "Assertion");
  if (found.length !== 1) throw new SamlError("assertion-count", `the signed Response must hold exactly one Assertion (found ${found.length})`);
  return found[0]!;
}

/** Attribute values by Name (and by FriendlyName when it differs), whole text of each AttributeValue. */
function attributesOf(assertion: XmlElement): Record<string, string[]> {
  const attributes: Record<string, string[]> = {};
  for (const statement of children(assertion, NS.saml, "AttributeStatement")) {
    for (const attribute of children(statement, NS.saml, "Attribute")) {
      const values = children(attribute, NS.saml, "AttributeValue").map(fullText);
      for (const key of new Set([attr(attribute, "Name"), attr(attribute, "FriendlyName")])) {
        if (key) (attributes[key] ??= []).push(...values);
      }
    }
  }
  return attributes;
}
