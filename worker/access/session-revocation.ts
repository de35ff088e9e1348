/**
 * @module Per-reader revocation marks in the SESSIONS KV namespace: `revoked-before/{portal id}/{reader key}` holds
 * an epoch-ms instant; every session of that reader on that portal issued at or before it is void. A mark is a
 * plain overwrite (no read-modify-write to race) and expires once every session it could void has expired.
 * KV is eventually consistent: a sign-out is seen at once where it was made and within about a minute (KV's cache
 * time) everywhere else.
 */
/** The KV key part of a reader: hex SHA-256 of the reader id (a SAML NameID may be 512 characters; KV keys 512 bytes). */
export async function readerRevocationKey(readerId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(readerId)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const markKey = (portalId: number, readerKey: string) => `revoked-before/${portalId}/${readerKey}`;

/** The reader's revocation mark on `portalId` (epoch ms), 0 when there is none. */
export async function revokedBefore(kv: KVNamespace, portalId: number, readerKey: string): Promise<number> {
  const value = Number(await kv.get(markKey(portalId, readerKey)));
  return Number.isFinite(value) ? value : 0;
}

/**
 * Voids every session of `readerId` on `portalId` issued up to `nowMs`. The mark is kept `sessionTtlSeconds` (the
 * longest a session lives) plus two minutes, after which nothing it could void is left.
 */
export async function markReaderRevoked(kv: KVNamespace, portalId: number, readerId: string, sessionTtlSeconds: number, nowMs = Date.now()): Promise<void> {
  await kv.put(markKey(portalId, await readerRevocationKey(readerId)), String(nowMs), { expirationTtl: sessionTtlSeconds + 120 });
}
