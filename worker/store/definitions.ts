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

/**
 * R2 custom metadata of an alias: `definitions/{sha256}` as an empty object naming the key that holds the bytes
 * (`bytes-at`) and their length in bytes (`size`, decimal). A body streamed to R2 (store/definition-upload.ts) is
 * written once, under a key chosen before its hash is known; the alias gives it its content address without a copy.
 * Written by Portico only, never from the upload: still no tenant metadata.
 */
export const ALIAS_BYTES_AT = "bytes-at";
const ALIAS_SIZE = "size";

/** Where a definition's bytes are in R2 (`key`) and their length in bytes (`size`). */
export interface DefinitionLocation {
  key: string;
  size: number;
}

/** The location an alias object names, or undefined when `object` holds the bytes itself. */
function aliasTarget(object: R2Object): DefinitionLocation | undefined {
  const at = object.customMetadata?.[ALIAS_BYTES_AT];
  return at === undefined ? undefined : { key: at, size: Number(object.customMetadata?.[ALIAS_SIZE]) };
}

/** Makes `definitions/{sha256}` name the bytes stored under `key` (`size` bytes, whose SHA-256 is `sha256`). */
export async function putDefinitionAlias(bucket: R2Bucket, sha256: string, key: string, size: number): Promise<void> {
  await bucket.put(definitionKey(sha256), new Uint8Array(0), { customMetadata: { [ALIAS_BYTES_AT]: key, [ALIAS_SIZE]: String(size) } });
}

/** Where the raw body's bytes are and its size (one R2 head), or undefined when absent. */
export async function locateDefinition(bucket: R2Bucket, sha256: string): Promise<DefinitionLocation | undefined> {
  const head = await bucket.head(definitionKey(sha256));
  if (!head) return undefined;
  return aliasTarget(head) ?? { key: definitionKey(sha256), size: head.size };
}

/** The raw body as R2 serves it (an alias followed), unread: for streaming it on. Undefined when absent. */
export async function openDefinition(bucket: R2Bucket, sha256: string): Promise<R2ObjectBody | undefined> {
  const obj = await bucket.get(definitionKey(sha256));
  const target = obj ? aliasTarget(obj) : undefined;
  if (!target) return obj ?? undefined;
  await obj?.body.cancel();
  return (await bucket.get(target.key)) ?? undefined;
}

/** The raw body (an alias followed), read whole, or undefined when absent. */
export async function getDefinition(bucket: R2Bucket, sha256: string): Promise<{ body: Uint8Array<ArrayBuffer> } | undefined> {
  const obj = await openDefinition(bucket, sha256);
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
