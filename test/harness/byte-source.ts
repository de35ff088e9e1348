import type { ByteSource } from "../../worker/openapi/stream/build";

/**
 * A stored body held in memory as the streamed build reads one from R2: streamed in `chunk`-byte pieces, read by
 * byte ranges `[start, end)` (clamped to the body), counting the range reads.
 */
export function memorySource(bytes: Uint8Array, chunk = 64 * 1024): ByteSource & { reads: number } {
  const source = {
    reads: 0,
    async *stream() {
      for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
    },
    async read(start: number, end: number) {
      source.reads++;
      return bytes.slice(start, Math.min(end, bytes.length));
    },
  };
  return source;
}
