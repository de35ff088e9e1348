/** @module SHA-256 hex digests (Web Crypto: the same in workerd and Node). */

/** Hex SHA-256 of bytes or UTF-8 text. */
export async function sha256(data: Uint8Array | ArrayBuffer | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer> | ArrayBuffer);
  return hexOf(digest);
}

/** Lower-case hex of a digest's bytes. */
export function hexOf(digest: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
