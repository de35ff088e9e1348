/**
 * @module Reading a byte stream in large pieces. A request body or an R2 object body reaches a Worker in chunks of a
 * few KB (GitHub dereferenced, 73 MB: ~18,000 under `wrangler dev`), each a JavaScript round trip (and, for an
 * upload, a hash write); workerd's BYOB readers have `readAtLeast`, which fills a buffer across them.
 */

/**
 * Bytes asked of a byte stream per read by default: 1 MiB.
 */
export const BODY_READ_BYTES = 1024 * 1024;

/** A reader of a body in pieces: `value` is absent only when `done`. */
export interface PieceReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

/**
 * Reads `stream` in pieces of `bytes` (default {@link BODY_READ_BYTES}) through a BYOB reader's `readAtLeast` (workerd's extension;
 * a request body there is a byte stream), else (a stream of chunks, as in plain Node) in the stream's own chunks.
 */
export function pieceReader(stream: ReadableStream<Uint8Array>, bytes = BODY_READ_BYTES): PieceReader {
  type AtLeast = { readAtLeast?(min: number, view: Uint8Array): Promise<ReadableStreamReadResult<Uint8Array>>; releaseLock(): void; cancel(): Promise<void> };
  let byob: AtLeast | undefined;
  try {
    byob = stream.getReader({ mode: "byob" }) as unknown as AtLeast;
  } catch {
    // Not a byte stream: read its chunks as they come.
  }
  if (!byob || typeof byob.readAtLeast !== "function") {
    byob?.releaseLock();
    const reader = stream.getReader();
    return {
      async read() {
        const r = await reader.read();
        return r.done ? { done: true as const } : { done: false as const, value: r.value };
      },
      cancel: () => reader.cancel(),
    };
  }
  const reader = byob as Required<AtLeast>;
  let ended = false;
  return {
    async read() {
      if (ended) return { done: true as const };
      const { done, value } = await reader.readAtLeast(bytes, new Uint8Array(bytes));
      ended = done;
      return value && value.byteLength > 0 ? { done: false as const, value } : { done: true as const };
    },
    cancel: () => reader.cancel(),
  };
}

/** `stream`'s bytes in pieces of `bytes` (see {@link pieceReader}); the reader is released when the loop ends early. */
export async function* pieces(stream: ReadableStream<Uint8Array>, bytes = BODY_READ_BYTES): AsyncGenerator<Uint8Array> {
  const reader = pieceReader(stream, bytes);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
