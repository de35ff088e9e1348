/** @module Portal API tokens: random, shown once, stored as SHA-256. */
import { sha256 } from "../content/hash";

const TOKEN_PREFIX = "ptk_";

function base64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Hex SHA-256 of bytes or UTF-8 text (one implementation: worker/content/hash.ts). */
export const sha256Hex = sha256;

/** A new portal token: `ptk_` + 256 random bits, base64url. */
export function generateToken(): string {
  return TOKEN_PREFIX + base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Compares two secrets in time independent of where they differ (both are hashed first, so lengths match). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([sha256Hex(a), sha256Hex(b)]);
  let diff = 0;
  for (let i = 0; i < ha.length; i++) diff |= ha.charCodeAt(i) ^ hb.charCodeAt(i);
  return diff === 0;
}
