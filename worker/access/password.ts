/**
 * @module The shared password: a slow salted hash (PBKDF2-SHA256 through WebCrypto, 16-byte salt, 32-byte
 * output) stored as `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url), compared in constant time.
 */

/** PBKDF2 iterations of new hashes (OWASP's 2023 figure for PBKDF2-HMAC-SHA256 is 600,000; workerd's cap is 100,000). */
export const PBKDF2_ITERATIONS = 100_000;

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations }, key, 256));
}

/** A new hash of `password` with a fresh random salt. */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha256$${iterations}$${b64url(salt)}$${b64url(await derive(password, salt, iterations))}`;
}

/** True iff `password` matches `stored` (a {@link hashPassword} string); false for any malformed `stored`. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^pbkdf2-sha256\$(\d{1,7})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{43})$/.exec(stored);
  if (!m || password.length > 1024) return false;
  const iterations = Number(m[1]);
  if (iterations < 1000 || iterations > PBKDF2_ITERATIONS) return false;
  const actual = await derive(password, unb64url(m[2]), iterations);
  const expected = unb64url(m[3]);
  let diff = actual.length ^ expected.length;
  for (let i = 0; i < actual.length; i++) diff |= actual[i] ^ (expected[i] ?? 0);
  return diff === 0;
}
