/**
 * @module Webhook authenticity: GitHub's `X-Hub-Signature-256` (`sha256=` + hex HMAC-SHA256 of the raw body with
 * the webhook secret; RFC 2104) verified with WebCrypto's `verify` (constant time), and GitLab's `X-Gitlab-Token`
 * compared in constant time. Both run on the raw bytes before anything parses them.
 */
import { secretsEqual } from "../store/tokens";

const encoder = new TextEncoder();

/** True when `header` is `sha256=<64 hex>` and the HMAC-SHA256 of `body` under `secret`. */
export async function verifyGitHubSignature(secret: string, body: Uint8Array<ArrayBuffer>, header: string | undefined): Promise<boolean> {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match || !secret) return false;
  const signature = new Uint8Array(32);
  for (let i = 0; i < 32; i++) signature[i] = parseInt(match[1].slice(i * 2, i * 2 + 2), 16);
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", key, signature, body);
}

/** `sha256=<hex>` for `body` under `secret` (what GitHub sends; the demo and the tests sign with it). */
export async function signGitHubBody(secret: string, body: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, typeof body === "string" ? encoder.encode(body) : body));
  return "sha256=" + [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when GitLab's `X-Gitlab-Token` equals the configured secret (constant time). */
export async function verifyGitLabToken(secret: string, header: string | undefined): Promise<boolean> {
  if (!secret || !header) return false;
  return secretsEqual(header, secret);
}
