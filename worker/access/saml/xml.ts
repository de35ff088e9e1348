/**
 * @module Safe XML for SAML: one parser configuration (xmldom, every warning fatal, no DOCTYPE or entity
 * declarations: the XXE and billion-laughs vectors) and the few DOM helpers the SAML code reads with. Text is
 * always read whole (`fullText`), never as an element's first text node: a comment inside a NameID splits the
 * text, and reading only the first part is the comment-injection attack (CVE-2017-11427 family).
 */
import { DOMParser, type Document, type Element, type Node } from "@xmldom/xmldom";

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
export function parseXml(xml: string): Document {
  if (xml.length > MAX_XML_CHARS) throw new SamlError("xml-too-large", `XML document over ${MAX_XML_CHARS} characters`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlError("xml-doctype", "DOCTYPE and entity declarations are refused in SAML documents");
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        throw new SamlError("xml-malformed", `XML ${level}: ${String(message).split("\n")[0]}`);
      },
    }).parseFromString(xml, "text/xml");
  } catch (error) {
    if (error instanceof SamlError) throw error;
    throw new SamlError("xml-malformed", `XML not well-formed: ${String((error as Error).message ?? error).split("\n")[0]}`);
  }
  if (!doc.documentElement) throw new SamlError("xml-malformed", "XML document has no root element");
  if (doc.doctype) throw new SamlError("xml-doctype", "DOCTYPE declarations are refused in SAML documents");
  return doc;
}

/** True iff `node` is an element named `local` in namespace `ns`. */
export function isElement(node: Node | null | undefined, ns: string, local: string): node is Element {
  return !!node && node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === local;
}

/** The element children of `parent` named `local` in `ns`, in document order. */
export function children(parent: Element, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (isElement(n, ns, local)) out.push(n);
  return out;
}

/** The only child `local` of `parent`, undefined when absent. @throws SamlError `duplicate-element` when repeated. */
export function onlyChild(parent: Element, ns: string, local: string): Element | undefined {
  const found = children(parent, ns, local);
  if (found.length > 1) throw new SamlError("duplicate-element", `more than one ${local} in ${parent.localName}`);
  return found[0];
}

/** Every element named `local` in `ns` under `root` (itself included), in document order. */
export function descendants(root: Element | Document, ns: string, local: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(ns, local));
}

/** Every element of the document, root first. */
export function allElements(doc: Document): Element[] {
  return Array.from(doc.getElementsByTagName("*"));
}

/**
 * The whole text of `el`: every text and CDATA descendant joined, comments and processing instructions skipped,
 * trimmed. What a canonicalisation without comments signs is exactly this text.
 */
export function fullText(el: Element): string {
  let out = "";
  const walk = (node: Node): void => {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 || n.nodeType === 4) out += n.nodeValue ?? "";
      else if (n.nodeType === 1) walk(n);
    }
  };
  walk(el);
  return out.trim();
}

/** An attribute's value, undefined when absent (xmldom answers "" for both). */
export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name) ?? undefined : undefined;
}

/** Escapes text for an XML attribute value or element content. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!);
}
