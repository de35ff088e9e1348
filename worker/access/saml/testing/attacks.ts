/**
 * @module Known SAML attack shapes, each built from a genuinely signed message (tests only). The XML signature
 * wrapping shapes follow Somorovsky et al., "On Breaking SAML: Be Whoever You Want to Be" (USENIX Security 2012),
 * XSW1-XSW8, plus the ID-duplication and signature-moving variants; every one must be refused.
 */
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { NS, type XmlDocument as Document, type XmlElement as Element } from "../xml";

export interface Attack {
  name: string;
  xml: string;
}

const parse = (xml: string): Document => new DOMParser().parseFromString(xml, "text/xml");
const serialize = (doc: Document): string => new XMLSerializer().serializeToString(doc);
const first = (doc: Document | Element, ns: string, local: string): Element => doc.getElementsByTagNameNS(ns, local)[0]!;

/** A copy of the document's Assertion with NameID `evil`, ID `_evil` and no signature. */
function evilAssertion(doc: Document, evil: string, id = "_evil"): Element {
  const copy = first(doc, NS.saml, "Assertion").cloneNode(true) as Element;
  copy.setAttribute("ID", id);
  const sig = first(copy, NS.ds, "Signature");
  if (sig) copy.removeChild(sig);
  const nameId = first(copy, NS.saml, "NameID");
  while (nameId.firstChild) nameId.removeChild(nameId.firstChild);
  nameId.appendChild(doc.createTextNode(evil));
  return copy;
}

function dsElement(doc: Document, local: string): Element {
  return doc.createElementNS(NS.ds, `ds:${local}`);
}

/** Wrapping shapes against a message whose Assertion is signed (`signedAssertion`, Response unsigned). */
export function assertionWrappingAttacks(signedAssertion: string, evil: string): Attack[] {
  const build = (name: string, edit: (doc: Document, response: Element, original: Element) => void): Attack => {
    const doc = parse(signedAssertion);
    edit(doc, doc.documentElement!, first(doc, NS.saml, "Assertion"));
    return { name, xml: serialize(doc) };
  };
  return [
    build("XSW3: evil assertion before the signed one", (doc, response, original) => {
      response.insertBefore(evilAssertion(doc, evil), original);
    }),
    build("XSW4: signed assertion wrapped inside the evil one", (doc, response, original) => {
      const bad = evilAssertion(doc, evil);
      response.replaceChild(bad, original);
      bad.appendChild(original);
    }),
    build("XSW5: signature moved to the evil assertion, original appended", (doc, response, original) => {
      const bad = evilAssertion(doc, evil);
      const copy = original.cloneNode(true) as Element;
      copy.removeChild(first(copy, NS.ds, "Signature"));
      const sig = first(original, NS.ds, "Signature");
      original.removeChild(sig);
      bad.insertBefore(sig, first(bad, NS.saml, "Subject"));
      response.replaceChild(bad, original);
      response.appendChild(copy);
    }),
    build("XSW6: original inside the signature of the evil assertion", (doc, response, original) => {
      const bad = evilAssertion(doc, evil);
      const sig = first(original, NS.ds, "Signature").cloneNode(true) as Element;
      const copy = original.cloneNode(true) as Element;
      copy.removeChild(first(copy, NS.ds, "Signature"));
      sig.appendChild(copy);
      bad.insertBefore(sig, first(bad, NS.saml, "Subject"));
      response.replaceChild(bad, original);
    }),
    build("XSW7: original hidden in samlp:Extensions, evil assertion consumed", (doc, response, original) => {
      const extensions = doc.createElementNS(NS.samlp, "samlp:Extensions");
      response.replaceChild(evilAssertion(doc, evil), original);
      extensions.appendChild(original);
      response.insertBefore(extensions, response.firstChild!.nextSibling);
    }),
    build("XSW8: original in a ds:Object of the evil assertion's signature", (doc, response, original) => {
      const bad = evilAssertion(doc, evil);
      const sig = first(original, NS.ds, "Signature");
      original.removeChild(sig);
      const object = dsElement(doc, "Object");
      object.appendChild(original.cloneNode(true));
      sig.appendChild(object);
      bad.insertBefore(sig, first(bad, NS.saml, "Subject"));
      response.replaceChild(bad, original);
    }),
    build("duplicate ID: evil assertion takes the signed ID, original kept in Extensions", (doc, response, original) => {
      const bad = evilAssertion(doc, evil, original.getAttribute("ID")!);
      const extensions = doc.createElementNS(NS.samlp, "samlp:Extensions");
      response.replaceChild(bad, original);
      extensions.appendChild(original);
      response.insertBefore(extensions, response.firstChild!.nextSibling);
    }),
    build("signature moved onto a single evil assertion (reference points elsewhere)", (doc, response, original) => {
      const bad = evilAssertion(doc, evil);
      const sig = first(original, NS.ds, "Signature");
      original.removeChild(sig);
      bad.insertBefore(sig, first(bad, NS.saml, "Subject"));
      response.replaceChild(bad, original);
    }),
    build("signed assertion edited after signing (same ID, new NameID)", (doc, _response, original) => {
      const nameId = first(original, NS.saml, "NameID");
      // A new text node, not `nodeValue =`: xmldom 0.8 serialises a text node's `data`, which that does not change.
      nameId.replaceChild(doc.createTextNode(evil), nameId.firstChild!);
    }),
  ];
}

/** Wrapping shapes against a message whose Response is signed (`signedResponse`, Assertion unsigned). */
export function responseWrappingAttacks(signedResponse: string, evil: string): Attack[] {
  const build = (name: string, edit: (doc: Document, response: Element) => Document): Attack => {
    const doc = parse(signedResponse);
    return { name, xml: serialize(edit(doc, doc.documentElement!)) };
  };
  /** A new root Response (ID `_evilresp`) carrying the evil assertion; the original's signature stays on it. */
  const evilRoot = (doc: Document, response: Element): { outer: Element; original: Element } => {
    const original = response.cloneNode(true) as Element;
    response.setAttribute("ID", "_evilresp");
    response.replaceChild(evilAssertion(doc, evil), first(response, NS.saml, "Assertion"));
    return { outer: response, original };
  };
  return [
    build("XSW1: signed Response copied into the Signature, evil root consumed", (doc, response) => {
      const { outer, original } = evilRoot(doc, response);
      original.removeChild(first(original, NS.ds, "Signature"));
      first(outer, NS.ds, "Signature").appendChild(original);
      return doc;
    }),
    build("XSW2: signed Response as a sibling before the Signature", (doc, response) => {
      const { outer, original } = evilRoot(doc, response);
      original.removeChild(first(original, NS.ds, "Signature"));
      const sig = first(outer, NS.ds, "Signature");
      outer.insertBefore(original, sig);
      return doc;
    }),
    build("XSW1 without a second assertion: the root's signature still names the original Response", (doc, response) => {
      const { outer, original } = evilRoot(doc, response);
      original.removeChild(first(original, NS.ds, "Signature"));
      original.removeChild(first(original, NS.saml, "Assertion"));
      first(outer, NS.ds, "Signature").appendChild(original);
      return doc;
    }),
    build("evil root keeps the signed ID, original nested in Extensions", (doc, response) => {
      const original = response.cloneNode(true) as Element;
      response.replaceChild(evilAssertion(doc, evil), first(response, NS.saml, "Assertion"));
      const extensions = doc.createElementNS(NS.samlp, "samlp:Extensions");
      extensions.appendChild(original);
      response.insertBefore(extensions, first(response, NS.samlp, "Status"));
      return doc;
    }),
  ];
}

/**
 * Comment injection: `<!---->` inserted into the signed NameID after its first `cut` characters. Exclusive c14n
 * without comments ignores it, so the signature still verifies; a reader of the first text node would see only
 * the prefix (e.g. `admin@portico.test` of `admin@portico.test.evil.example`).
 */
export function injectComment(signedXml: string, cut: number): string {
  const doc = parse(signedXml);
  const nameId = first(doc, NS.saml, "NameID");
  const text = nameId.firstChild!.nodeValue!;
  while (nameId.firstChild) nameId.removeChild(nameId.firstChild);
  nameId.appendChild(doc.createTextNode(text.slice(0, cut)));
  nameId.appendChild(doc.createComment(""));
  nameId.appendChild(doc.createTextNode(text.slice(cut)));
  return serialize(doc);
}

const XHTML = "http://www.w3.org/1999/xhtml";

/**
 * The parser differential of issue 36, built from any XML the IdP ever signed (`signedXml`: a document holding one
 * element with an ID and an enveloped ds:Signature child: an assertion for another service provider, signed
 * metadata, a signed Response). Its signature moves onto `forgedAssertion` (an unsigned Assertion carrying the
 * signed element's ID), and the signed element, stripped of its signature, is hidden where xmldom 0.8 and 0.9
 * disagree: 0.8 reads an XHTML `<script>` element's content as text up to the first `</script>`, 0.9 parses it,
 * and only 0.9 ends the element at `</script >`. Layout after the Response's Status:
 *
 *     <script>  </script >  FORGED  <script><![CDATA[</script>  SIGNED  <script>]]></script>
 *
 * 0.9 sees: an empty script, FORGED (with the signature) as the Response's only Assertion, a script holding text.
 * 0.8 sees: a script holding FORGED as text, SIGNED as an element, a script holding `]]>`. A verifier on one tree
 * and a reader on the other would accept FORGED's claims under SIGNED's signature.
 * @param outerResponse an unsigned Response (the attacker's envelope) with one Assertion, which is replaced.
 */
export function scriptDifferentialAttack(signedXml: string, forgedAssertion: string, outerResponse: string): Attack {
  const signedDoc = parse(signedXml);
  const signature = first(signedDoc, NS.ds, "Signature");
  const signed = signature.parentNode as Element;
  const id = signed.getAttribute("ID") ?? signed.getAttribute("Id")!;
  signed.removeChild(signature);
  const hidden = serialize(signed as unknown as Document);

  const forgedDoc = parse(forgedAssertion);
  const forged = forgedDoc.documentElement!;
  forged.setAttribute("ID", id);
  forged.insertBefore(forgedDoc.importNode(signature, true), first(forged, NS.saml, "Issuer").nextSibling);
  const script = `<script xmlns="${XHTML}">`;
  const smuggled = `${script}</script >${serialize(forgedDoc)}${script}<![CDATA[</script>${hidden}${script}]]></script>`;
  const xml = outerResponse.replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, () => smuggled);
  if (xml === outerResponse) throw new Error("outerResponse has no saml:Assertion to replace");
  return { name: `script differential (${signed.localName} ${id})`, xml };
}

/** The Assertion element of a Response built by testing/idp.ts's responseXml, as its own document's text. */
export function assertionOf(responseXml: string): string {
  return serialize(first(parse(responseXml), NS.saml, "Assertion") as unknown as Document);
}
