/**
 * @module Signing keys made at run time for the test identity providers (tests only): an RSA-2048 key pair from
 * WebCrypto and a self-signed X.509 certificate from @peculiar/x509, both as PEM, so xml-crypto can sign with the
 * key and the IdP metadata can carry the certificate. Nothing is read from disk: every run has keys of its own.
 */
import "reflect-metadata"; // @peculiar/x509's dependency injection (tsyringe) needs the Reflect metadata API
import { X509CertificateGenerator } from "@peculiar/x509";

/** A signing identity: PKCS#8 private key and certificate, PEM. */
export interface SigningKeys {
  key: string;
  cert: string;
}

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;

function pem(label: string, der: ArrayBuffer): string {
  let binary = "";
  for (const b of new Uint8Array(der)) binary += String.fromCharCode(b);
  return `-----BEGIN ${label}-----\n${btoa(binary).match(/.{1,64}/g)!.join("\n")}\n-----END ${label}-----\n`;
}

/** A new key pair and a certificate for it naming `commonName`, valid from a day ago for a year. */
export async function makeSigningKeys(commonName: string): Promise<SigningKeys> {
  const keys = (await crypto.subtle.generateKey(RSA, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const cert = await X509CertificateGenerator.createSelfSigned({
    serialNumber: Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("").replace(/^[89a-f]/, "1"),
    name: `CN=${commonName}`,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 365 * 86_400_000),
    signingAlgorithm: RSA,
    keys,
  });
  return { key: pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", keys.privateKey)), cert: cert.toString("pem") };
}
