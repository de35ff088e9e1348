/** @module Reading a byte stream without ever holding more than a cap. */

/**
 * Reads `stream` to its end or to `cap` bytes, whichever comes first; past the cap it cancels the stream and
 * answers the first `cap` bytes with `truncated: true`. A missing stream reads as empty.
 * @throws whatever the stream's `read` throws (a broken connection).
 */
export async function readStreamCapped(stream: ReadableStream<Uint8Array> | null | undefined, cap: number): Promise<{ bytes: Uint8Array<ArrayBuffer>; truncated: boolean }> {
  if (!stream) return { bytes: new Uint8Array(0), truncated: false };
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > cap) {
      parts.push(value.subarray(0, cap - size));
      size = cap;
      truncated = true;
      await reader.cancel();
      break;
    }
    parts.push(value);
    size += value.byteLength;
  }
  return { bytes: concatBytes(parts, size), truncated };
}

/** `parts` joined into one array of `size` bytes (their total length). */
export function concatBytes(parts: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
