/**
 * @module Raw uploaded definitions in R2, content-addressed by SHA-256 (what must never be lost).
 *
 * One blob serves every portal that uploads the same bytes, so it carries nothing a tenant chose: no
 * Content-Type or other metadata from the upload (the last uploader's would win for all). What a raw
 * definition is served as is decided by Portico and kept per publication (`versions.media_type`).
 */

/** R2 key of a raw definition body. */
export function definitionKey(sha256: string): string {
  return `definitions/${sha256}`;
}

/** Stores a raw body under its hash (re-storing the same body writes the same bytes: no check needed). */
export async function putDefinition(bucket: R2Bucket, sha256: string, body: Uint8Array): Promise<void> {
  await bucket.put(definitionKey(sha256), body, { sha256 });
}

/** The raw body, or undefined when absent. */
export async function getDefinition(bucket: R2Bucket, sha256: string): Promise<{ body: Uint8Array<ArrayBuffer> } | undefined> {
  const obj = await bucket.get(definitionKey(sha256));
  if (!obj) return undefined;
  return { body: new Uint8Array(await obj.arrayBuffer()) };
}

/** Media types Portico serves raw definitions as. */
export const DEFINITION_MEDIA_TYPES = {
  json: "application/json; charset=utf-8",
  yaml: "application/yaml; charset=utf-8",
  gzip: "application/gzip",
  zip: "application/zip",
  tar: "application/x-tar",
} as const;

/**
 * The media type of a raw definition, from its bytes: an archive by its signature (gzip, zip, ustar), else
 * the parser's `format` when known, else JSON when the first non-blank character opens an object or array
 * (YAML otherwise). Never the uploader's Content-Type.
 */
export function definitionMediaType(body: Uint8Array, format?: "json" | "yaml"): string {
  if (body[0] === 0x1f && body[1] === 0x8b) return DEFINITION_MEDIA_TYPES.gzip;
  if (body[0] === 0x50 && body[1] === 0x4b && (body[2] === 0x03 || body[2] === 0x05)) return DEFINITION_MEDIA_TYPES.zip;
  if (body.length >= 263 && String.fromCharCode(...body.subarray(257, 262)) === "ustar") return DEFINITION_MEDIA_TYPES.tar;
  if (format) return DEFINITION_MEDIA_TYPES[format];
  const head = new TextDecoder().decode(body.subarray(0, 1024)).replace(/^\uFEFF/, "").trimStart();
  return head.startsWith("{") || head.startsWith("[") ? DEFINITION_MEDIA_TYPES.json : DEFINITION_MEDIA_TYPES.yaml;
}
