/**
 * One XML parser for verifying and reading SAML (issue 36): xml-crypto parses the raw message with whatever
 * `@xmldom/xmldom` it resolves, Portico reads with its own. Two copies at different versions read an XHTML
 * `<script>` differently, and that split let a forged assertion be read under a genuine signature. These checks
 * fail on any upgrade that splits them again (a new xmldom for one side only, a lock file that nests a copy).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { assertionOf, scriptDifferentialAttack } from "../../worker/access/saml/testing/attacks";
import { responseXml, signXml } from "../../worker/access/saml/testing/idp";
import { makeSigningKeys } from "../../worker/access/saml/testing/keys";
import { parseXml } from "../../worker/access/saml/xml";

const require = createRequire(import.meta.url);

describe("the SAML XML parser is one module", () => {
  it("xml-crypto resolves the very @xmldom/xmldom file Portico imports, and package.json keeps it so", () => {
    const ours = require.resolve("@xmldom/xmldom");
    const theirs = createRequire(require.resolve("xml-crypto")).resolve("@xmldom/xmldom");
    expect(theirs).toBe(ours);
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(pkg.overrides?.["xml-crypto"]?.["@xmldom/xmldom"]).toBe("$@xmldom/xmldom");
    const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8"));
    expect(Object.keys(lock.packages).filter((p) => p.endsWith("node_modules/@xmldom/xmldom"))).toEqual(["node_modules/@xmldom/xmldom"]);
  });

  it("reads the differential message as xml-crypto's own call does: the same tree, node for node", async () => {
    const keys = await makeSigningKeys("pin");
    const base = { inResponseTo: "_r", acsUrl: "https://sp/acs", audience: "https://sp/md", issuer: "https://idp", nameId: "eve@x.test", now: new Date() };
    const signed = signXml(responseXml({ ...base, acsUrl: "https://other/acs", audience: "https://other/md" }), "Assertion", keys.key, keys.cert);
    const attack = scriptDifferentialAttack(signed, assertionOf(responseXml({ ...base, nameId: "admin@x.test" })), responseXml(base));
    // xml-crypto's checkSignature: `new xmldom.DOMParser().parseFromString(xml)` (signed-xml.js).
    const asVerifierSees = new XMLSerializer().serializeToString(new DOMParser().parseFromString(attack.xml) as unknown as Node);
    const asReaderSees = new XMLSerializer().serializeToString(parseXml(attack.xml) as unknown as Node);
    expect(asReaderSees).toBe(asVerifierSees);
    // Both see the forged assertion as a script's text and the signed one as the only Assertion element.
    const assertions = parseXml(attack.xml).getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Assertion");
    expect(Array.from(assertions, (a) => a.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "NameID")[0]!.textContent)).toEqual(["eve@x.test"]);
  });
});
