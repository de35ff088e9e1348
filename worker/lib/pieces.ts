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

/** A BYOB reader with workerd's `readAtLeast` (and BYOB `read`), as request and R2 bodies have. */
type AtLeastReader = {
  readAtLeast(min: number, view: Uint8Array): Promise<ReadableStreamReadResult<Uint8Array>>;
  read(view: Uint8Array): Promise<ReadableStreamReadResult<Uint8Array>>;
  releaseLock(): void;
  cancel(): Promise<void>;
};

/** `stream`'s BYOB reader when it is a byte stream whose reader has `readAtLeast` (workerd's extension); else undefined, `stream` left unlocked. */
function atLeastReader(stream: ReadableStream<Uint8Array>): AtLeastReader | undefined {
  let byob: Partial<AtLeastReader> | undefined;
  try {
    byob = stream.getReader({ mode: "byob" }) as unknown as Partial<AtLeastReader>;
  } catch {
    // Not a byte stream: its caller reads the chunks as they come.
  }
  if (byob && typeof byob.readAtLeast === "function") return byob as AtLeastReader;
  byob?.releaseLock?.();
  return undefined;
}

/**
 * Reads `stream` in pieces of `bytes` (default {@link BODY_READ_BYTES}) through a BYOB reader's `readAtLeast` (workerd's extension;
 * a request body there is a byte stream), else (a stream of chunks, as in plain Node) in the stream's own chunks.
 */
export function pieceReader(stream: ReadableStream<Uint8Array>, bytes = BODY_READ_BYTES): PieceReader {
  const reader = atLeastReader(stream);
  if (!reader) {
    // Not a byte stream: its chunks as they come.
    const chunks = stream.getReader();
    return {
      async read() {
        const r = await chunks.read();
        return r.done ? { done: true as const } : { done: false as const, value: r.value };
      },
      cancel: () => chunks.cancel(),
    };
  }
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

/** Why {@link readExactly} refused a stream: it ended before `expected` bytes (`received` < expected) or ran past them. */
export class LengthMismatch extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(received < expected ? `the stream ended after ${received} of ${expected} bytes` : `the stream has more than ${expected} bytes`);
    this.name = "LengthMismatch";
  }
}

/**
 * Reads a stream of exactly `size` bytes into one buffer of that size (see {@link readInto}).
 * @throws LengthMismatch when the stream holds fewer or more than `size` bytes; whatever its reads throw.
 */
export async function readExactly(stream: ReadableStream<Uint8Array>, size: number, step = BODY_READ_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  const { bytes, more } = await readInto(stream, size, step);
  if (more) throw new LengthMismatch(size, size + 1);
  if (bytes.byteLength < size) throw new LengthMismatch(size, bytes.byteLength);
  return bytes;
}

/**
 * Reads a stream expected to hold `size` bytes into one buffer of that size: one allocation, filled in place
 * through a BYOB reader's `readAtLeast` in `step`-byte views (each read's buffer passed on to the next, as BYOB reads
 * require), rather than pieces kept and joined afterwards. A stream that is not a byte stream is read chunk by
 * chunk into the buffer. `bytes`: what the stream held (a view of fewer bytes when it ended early); `more`: it
 * held more than `size` (then cancelled, `bytes` being its first `size`). Memory: `size` bytes. `onRead` sees each
 * read's bytes as they land (a view into the buffer, valid only during the call: the next read transfers it).
 * @throws whatever the stream's reads throw.
 */
export async function readInto(
  stream: ReadableStream<Uint8Array>,
  size: number,
  step = BODY_READ_BYTES,
  onRead?: (bytes: Uint8Array) => void,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; more: boolean }> {
  const reader = atLeastReader(stream);
  if (!reader) {
    // Not a byte stream: copied chunk by chunk.
    const out = new Uint8Array(size);
    let at = 0;
    const chunks = stream.getReader();
    for (;;) {
      const { done, value } = await chunks.read();
      if (done) break;
      if (at + value.byteLength > size) {
        out.set(value.subarray(0, size - at), at);
        await chunks.cancel().catch(() => undefined);
        return { bytes: out, more: true };
      }
      out.set(value, at);
      onRead?.(out.subarray(at, at + value.byteLength));
      at += value.byteLength;
    }
    return { bytes: out.subarray(0, at), more: false };
  }
  let buffer = new ArrayBuffer(size);
  let at = 0;
  while (at < size) {
    const length = Math.min(step, size - at);
    const { done, value } = await reader.readAtLeast(length, new Uint8Array(buffer, at, length));
    // The view's buffer was transferred to the read: the bytes (and the rest of the buffer) come back in `value`.
    if (value) {
      buffer = value.buffer as ArrayBuffer;
      at += value.byteLength;
      if (value.byteLength) onRead?.(value);
    }
    if (done) return { bytes: new Uint8Array(buffer, 0, at), more: false };
  }
  // Nothing may follow: one more (one-byte) read must report the end.
  const { done, value } = await reader.read(new Uint8Array(1));
  if (!done || (value && value.byteLength > 0)) {
    await reader.cancel().catch(() => undefined);
    return { bytes: new Uint8Array(buffer), more: true };
  }
  return { bytes: new Uint8Array(buffer), more: false };
}
