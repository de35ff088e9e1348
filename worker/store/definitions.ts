/** @module Raw uploaded definitions in R2, content-addressed by SHA-256 (what must never be lost). */

/** R2 key of a raw definition body. */
export function definitionKey(sha256: string): string {
  return `definitions/${sha256}`;
}

/** Stores a raw body under its hash (re-storing the same body writes the same bytes: no check needed). */
export async function putDefinition(bucket: R2Bucket, sha256: string, body: Uint8Array, contentType: string): Promise<void> {
  await bucket.put(definitionKey(sha256), body, { httpMetadata: { contentType }, sha256 });
}

/** The raw body and its stored content type, or undefined when absent. */
export async function getDefinition(bucket: R2Bucket, sha256: string): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string } | undefined> {
  const obj = await bucket.get(definitionKey(sha256));
  if (!obj) return undefined;
  return { body: new Uint8Array(await obj.arrayBuffer()), contentType: obj.httpMetadata?.contentType ?? "application/octet-stream" };
}
