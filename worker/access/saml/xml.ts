/**
 * @module Safe XML for SAML: one parser configuration (xmldom, every warning fatal, no DOCTYPE or entity
 * declarations: the XXE and billion-laughs vectors) and the few DOM helpers the SAML code reads with. Text is
 * always read whole (`fullText`), never as an element's first text node: a comment inside a NameID splits the
 * text, and reading only the first part is the comment-injection attack (CVE-2017-11427 family).
 *
 * One parser for verifying and reading: xml-crypto parses the raw message itself (`checkSignature(xml)`), with
 * whatever `@xmldom/xmldom` it resolves. package.json pins ours to the line xml-crypto takes and `overrides`
 * xml-crypto's to the very same copy, so the tree whose signature is checked and the tree this module reads are
 * built by one module from one string (test/saml/parser-pin.test.ts fails on any split). Two xmldom lines did
 * disagree: 0.8 reads an XHTML `<script>` element's content as text, 0.9 as elements, which let a signed element
 * be verified on one tree while a forged one was read from the other (issue 36).
 */
import { DOMParser } from "@xmldom/xmldom";
import { escapeHtml } from "../../lib/html-escape";

/** DOM node types as xmldom builds them (the DOM's own interfaces; xmldom 0.8 types its nodes with them). */
export type XmlDocument = Document;
export type XmlElement = Element;
export type XmlNode = Node;

export const NS = {
  samlp: "urn:oasis:names:tc:SAML:2.0:protocol",
  saml: "urn:oasis:names:tc:SAML:2.0:assertion",
  md: "urn:oasis:names:tc:SAML:2.0:metadata",
  ds: "http://www.w3.org/2000/09/xmldsig#",
} as const;

/** A SAML message or metadata document refused: `code` is stable for tests and logs, `message` says why. */
export class SamlError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = "SamlError";
  }
}

/** Largest SAML document accepted (characters): real responses are a few KiB, metadata tens of KiB. */
export const MAX_XML_CHARS = 512 * 1024;

/**
 * Parses `xml` into a Document.
 * @throws SamlError `xml-doctype` for any DOCTYPE or ENTITY declaration, `xml-too-large` past MAX_XML_CHARS,
 * `xml-malformed` (with the parser's line and column) for anything not well-formed, even a warning.
 */
export function parseXml(xml: string): XmlDocument {
  if (xml.length > MAX_XML_CHARS) throw new SamlError("xml-too-large", `XML document over ${MAX_XML_CHARS} characters`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlError("xml-doctype", "DOCTYPE and entity declarations are refused in SAML documents");
  let doc: XmlDocument;
  const fail = (level: string) => (message: string): never => {
    throw new SamlError("xml-malformed", `XML ${level}: ${String(message).replace(/^\[xmldom [a-zA-Z]+\]\s*/, "").split("\n")[0]}`);
  };
  try {
    doc = new DOMParser({ errorHandler: { warning: fail("warning"), error: fail("error"), fatalError: fail("fatal error") } })
      .parseFromString(xml, "text/xml") as unknown as XmlDocument;
  } catch (error) {
    if (error instanceof SamlError) throw error;
    throw new SamlError("xml-malformed", `XML not well-formed: ${String((error as Error).message ?? error).split("\n")[0]}`);
  }
  if (!doc.documentElement) throw new SamlError("xml-malformed", "XML document has no root element");
  if (doc.doctype) throw new SamlError("xml-doctype", "DOCTYPE declarations are refused in SAML documents");
  return doc;
}

/** The namespaces a SAML Response may use for elements (protocol, assertion, XML-DSig). */
const SAML_VOCABULARY: ReadonlySet<string> = new Set([NS.samlp, NS.saml, NS.ds]);

/**
 * Refuses what a SAML Response never needs and parsers disagree on: comments, processing instructions (the XML
 * declaration excepted), DOCTYPE and entity references anywhere, and any element outside the SAML protocol,
 * assertion and XML-DSig namespaces (an XHTML `<script>`, an extension element, an encrypted part): a document
 * built only of these is read the same by every conforming parser. Text and CDATA are kept (read whole).
 * @throws SamlError `xml-comment`, `xml-processing-instruction`, `xml-doctype` or `xml-foreign-element`.
 */
export function checkSamlVocabulary(root: XmlDocument | XmlElement): void {
  const walk = (parent: XmlNode, atDocument: boolean): void => {
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      switch (n.nodeType) {
        case 1: {
          const el = n as XmlElement;
          if (!el.namespaceURI || !SAML_VOCABULARY.has(el.namespaceURI)) {
            throw new SamlError("xml-foreign-element", `element <${el.nodeName}> (namespace ${el.namespaceURI ?? "none"}) has no place in a SAML Response`);
          }
          walk(el, false);
          break;
        }
        case 3:
        case 4:
          break;
        case 7:
          // xmldom keeps `<?xml version="1.0"?>` as a processing instruction: allowed only where a declaration stands.
          if (!(atDocument && n === parent.firstChild && (n as ProcessingInstruction).target === "xml")) {
            throw new SamlError("xml-processing-instruction", "processing instructions are refused in SAML messages");
          }
          break;
        case 8:
          throw new SamlError("xml-comment", "comments are refused in SAML messages (a comment can split a signed value)");
        case 10:
          throw new SamlError("xml-doctype", "DOCTYPE declarations are refused in SAML documents");
        default:
          throw new SamlError("xml-node", `XML node type ${n.nodeType} is refused in SAML messages`);
      }
    }
  };
  if (root.nodeType === 1) {
    const el = root as XmlElement;
    if (!el.namespaceURI || !SAML_VOCABULARY.has(el.namespaceURI)) throw new SamlError("xml-foreign-element", `element <${el.nodeName}> has no place in a SAML Response`);
  }
  walk(root, root.nodeType === 9);
}

/** True iff `node` is an element named `local` in namespace `ns`. */
export function isElement(node: XmlNode | null | undefined, ns: string, local: string): node is XmlElement {
  return !!node && node.nodeType === 1 && (node as XmlElement).namespaceURI === ns && (node as XmlElement).localName === local;
}

/** The element children of `parent` named `local` in `ns`, in document order. */
export function children(parent: XmlElement, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (isElement(n, ns, local)) out.push(n);
  return out;
}

/** The only child `local` of `parent`, undefined when absent. @throws SamlError `duplicate-element` when repeated. */
export function onlyChild(parent: XmlElement, ns: string, local: string): XmlElement | undefined {
  const found = children(parent, ns, local);
  if (found.length > 1) throw new SamlError("duplicate-element", `more than one ${local} in ${parent.localName}`);
  return found[0];
}

/** Every element named `local` in `ns` under `root` (itself included), in document order. */
export function descendants(root: XmlElement | XmlDocument, ns: string, local: string): XmlElement[] {
  return Array.from(root.getElementsByTagNameNS(ns, local));
}

/** Every element of the document, root first. */
export function allElements(doc: XmlDocument | XmlElement): XmlElement[] {
  return Array.from(doc.getElementsByTagName("*"));
}

/**
 * The whole text of `el`: every text and CDATA descendant joined, comments and processing instructions skipped,
 * trimmed. What a canonicalisation without comments signs is exactly this text.
 */
export function fullText(el: XmlElement): string {
  let out = "";
  const walk = (node: XmlNode): void => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 || n.nodeType === 4) out += n.nodeValue ?? "";
      else if (n.nodeType === 1) walk(n);
    }
  };
  walk(el);
  return out.trim();
}

/** An attribute's value, undefined when absent (xmldom answers "" for both). */
export function attr(el: XmlElement, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name) ?? undefined : undefined;
}

/**
 * Escapes text for an XML attribute value or element content: HTML's escaping (lib/html-escape.ts), whose `&#39;`
 * XML 1.0 reads as `'` just as it reads `&apos;` (§4.1, character references).
 */
export const escapeXml: (text: string) => string = escapeHtml;
