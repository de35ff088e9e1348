/** @module Splitting a list of rows into JSON arrays under a byte size (a D1 bound parameter, a KV value). */

const utf8 = new TextEncoder();

/**
 * `rows` as JSON arrays of at most `maxBytes` UTF-8 bytes each (a single row larger than that gets one of its
 * own), in order. Always at least one array (`[]` for no rows), so an empty list still writes one value.
 */
export function jsonBatches(rows: readonly unknown[], maxBytes: number): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let bytes = 2;
  for (const row of rows) {
    const json = JSON.stringify(row);
    const n = utf8.encode(json).length + 1;
    if (parts.length > 0 && bytes + n > maxBytes) {
      out.push(`[${parts.join(",")}]`);
      parts = [];
      bytes = 2;
    }
    parts.push(json);
    bytes += n;
  }
  out.push(`[${parts.join(",")}]`);
  return out;
}
