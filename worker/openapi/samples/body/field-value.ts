/** @module A form or multipart field's text from an example value. */

/** Strings as is, other scalars via `String`, objects and arrays as JSON. */
export function fieldValue(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}
