/**
 * @module XML-DSig verification of one enveloped signature (xmldsig-core1 §3.2) with xml-crypto, under the SAML
 * profile's rules (saml-core-2.0-os §5.4): exactly one Reference, pointing by ID at the element that holds the
 * signature, exclusive c14n, only the enveloped-signature and exclusive c14n transforms, SHA-256 or SHA-512.
 * The key is only ever one of the configured IdP certificates: KeyInfo in the message is ignored (a message
 * carrying its own certificate must not choose its own trust).
 *
 * What a successful check hands back is the signed reference as xml-crypto digested it (the referenced element
 * after its transforms, canonical XML): the only text a caller may believe (xml-crypto's README, "verify what you
 * read"). It is read only after `checkSignature` returned true, never after a throw (xml-crypto issue #575).
 *
 * xml-crypto calls `node:crypto` createVerify/createHash; workerd with `nodejs_compat` (compatibility date
 * 2026-10-01) provides both, so no WebCrypto adapter is needed (test/saml/signature-workerd.test.ts checks it).
 */
import { SignedXml } from "xml-crypto";
import { attr, children, NS, onlyChild, SamlError, type XmlElement } from "./xml";

const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
/** SHA-1 and HMAC are refused: SHA-1 collisions are practical, and HMAC would make the certificate a shared secret. */
const SIGNATURE_ALGORITHMS = new Set(["http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512"]);
const DIGEST_ALGORITHMS = new Set(["http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2001/04/xmlenc#sha512"]);

/** The Algorithm of the only child `local` of `parent`. @throws SamlError `signature-shape` when missing. */
function algorithm(parent: XmlElement, local: string): string {
  const el = onlyChild(parent, NS.ds, local);
  const value = el && attr(el, "Algorithm");
  if (!value) throw new SamlError("signature-shape", `ds:${local} is missing its Algorithm`);
  return value;
}

/**
 * Checks the shape of `signature` (a ds:Signature child of `signed`) before any cryptography.
 * @throws SamlError `signature-shape` / `signature-algorithm` / `signature-reference` saying what is wrong.
 */
function checkShape(signature: XmlElement, signed: XmlElement): void {
  const signedInfo = onlyChild(signature, NS.ds, "SignedInfo");
  if (!signedInfo) throw new SamlError("signature-shape", "ds:Signature has no ds:SignedInfo");
  if (algorithm(signedInfo, "CanonicalizationMethod") !== EXC_C14N) {
    throw new SamlError("signature-algorithm", "ds:SignedInfo must be canonicalised with exclusive c14n (without comments)");
  }
  if (!SIGNATURE_ALGORITHMS.has(algorithm(signedInfo, "SignatureMethod"))) {
    throw new SamlError("signature-algorithm", "signature method must be RSA-SHA256 or RSA-SHA512");
  }
  const references = children(signedInfo, NS.ds, "Reference");
  if (references.length !== 1) throw new SamlError("signature-reference", `ds:SignedInfo must hold exactly one ds:Reference (found ${references.length})`);
  const reference = references[0]!;
  const id = attr(signed, "ID");
  if (!id || attr(reference, "URI") !== `#${id}`) {
    throw new SamlError("signature-reference", `the signature's Reference must point at the ${signed.localName} that holds it (#${id ?? "?"})`);
  }
  if (!DIGEST_ALGORITHMS.has(algorithm(reference, "DigestMethod"))) throw new SamlError("signature-algorithm", "digest method must be SHA-256 or SHA-512");
  const transforms = onlyChild(reference, NS.ds, "Transforms");
  const names = transforms ? children(transforms, NS.ds, "Transform").map((t) => attr(t, "Algorithm")) : [];
  if (names.some((n) => n !== ENVELOPED && n !== EXC_C14N) || new Set(names).size !== names.length) {
    throw new SamlError("signature-algorithm", "only the enveloped-signature and exclusive c14n transforms are accepted");
  }
}

/**
 * The signed reference of `signature` (a ds:Signature element parsed from `xml`, child of `signed`) when it is a
 * valid signature over `signed` by one of `certificates` (PEM): the canonical XML of `signed` without its
 * signature, exactly the bytes whose digest was checked. Null when no certificate verifies it.
 * @throws SamlError when the signature's shape breaks the profile (a refusal, not merely "invalid").
 */
export function verifyEnvelopedSignature(xml: string, signed: XmlElement, signature: XmlElement, certificates: readonly string[]): string | null {
  checkShape(signature, signed);
  for (const cert of certificates) {
    const verifier = new SignedXml({ publicCert: cert, getCertFromKeyInfo: () => null });
    let valid = false;
    try {
      verifier.loadSignature(signature as unknown as Node);
      valid = verifier.checkSignature(xml);
    } catch {
      // xml-crypto throws for digest mismatches and wrapping shapes it recognises: not valid with this key
      continue;
    }
    if (!valid) continue;
    const references = verifier.getSignedReferences();
    if (references.length !== 1) throw new SamlError("signature-reference", `the signature vouches for ${references.length} references, not one`);
    return references[0]!;
  }
  return null;
}
