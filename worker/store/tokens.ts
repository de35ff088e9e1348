/** @module Portal API tokens: random, shown once, stored as SHA-256. */

const TOKEN_PREFIX = "ptk_";

function base64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Lower-case hex SHA-256 of a string or bytes. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer> | ArrayBuffer): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

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
