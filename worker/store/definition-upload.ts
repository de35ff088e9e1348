/**
 * @module Receiving an upload body into R2 without holding it whole (issue 12: bodies up to 100 MB).
 *
 * A body that ends within `bufferBytes` is handed back whole, exactly as before (the caller hashes and stores it
 * as it always did). A longer one is streamed: the bytes read so far and every later chunk go to an R2 multipart
 * upload under a key of its own (`definitions/streamed/{uuid}`) in fixed-size parts while a `crypto.DigestStream`
 * hashes them; once the body has ended, `definitions/{sha256}` is written as an alias naming that key
 * (store/definitions.ts), or, when those bytes are already stored, the new object is deleted.
 *
 * Why multipart rather than one `put` of a `FixedLengthStream`: a `put` needs the length before the first byte,
 * and a client may send no Content-Length (chunked) or a wrong one; multipart needs no length and lets the count
 * refuse the body the moment it passes the limit. Why an alias rather than a copy to the content address: the key
 * is the body's hash, known only at its end, and R2 has no rename; a copy read and wrote every byte again (Graph
 * beta, 47 MB: 1.3 s of a local publish's 3.8 s r2-write). One part is uploaded while the next is read.
 */
import { hexOf } from "../content/hash";
import { pieceReader, readInto } from "../lib/pieces";
import { concatBytes } from "../lib/read-stream";
import { locateDefinition, putDefinitionAlias } from "./definitions";

/**
 * Part size of the streamed upload: R2 needs every part but the last to be at least 5 MiB and all of them the
 * same size; 10 MiB keeps a 100 MB body to 10 parts and one part's buffer in memory.
 */
export const UPLOAD_PART_BYTES = 10 * 1024 * 1024;

/** What {@link receiveBody} got: the whole body (small), or the hash and size of the body it stored in R2. */
export type ReceivedBody =
  | { kind: "buffered"; bytes: Uint8Array<ArrayBuffer> }
  | { kind: "stored"; sha256: string; size: number };

/**
 * Why {@link receiveBody} stopped: the body passed `maxBytes` (`over-limit`), its stream failed (`aborted`), or it
 * ended before the `expected` bytes its Content-Length declared (`short`: an incomplete message, RFC 9112 §8).
 */
export class BodyRefused extends Error {
  readonly expected: number | undefined;
  constructor(
    readonly reason: "over-limit" | "aborted" | "short",
    readonly received: number,
    options?: { cause?: unknown; expected?: number },
  ) {
    super(
      reason === "over-limit" ? `the body passed the limit after ${received} bytes`
        : reason === "short" ? `the body ended after ${received} bytes; its Content-Length declared ${options?.expected}`
        : "the body stream failed",
      options,
    );
    this.name = "BodyRefused";
    this.expected = options?.expected;
  }
}

/** The refusal of a body that ended at `received` bytes when `expected` were declared. */
const short = (received: number, expected: number) => new BodyRefused("short", received, { expected });

/** Options of {@link receiveBody}; sizes in bytes. */
export interface ReceiveOptions {
  /** Refuse (BodyRefused "over-limit") as soon as more than this many bytes have arrived. */
  maxBytes: number;
  /** Bodies that end within this many bytes are returned whole, not stored. */
  bufferBytes: number;
  /** Multipart part size (default {@link UPLOAD_PART_BYTES}; at least 5 MiB for R2). */
  partBytes?: number;
  /**
   * The body's declared length (Content-Length), when the request has one. Within `bufferBytes` the body is read
   * straight into one buffer of that size (lib/pieces.ts readInto) instead of 1 MiB pieces joined at the end (a
   * second copy of every byte: up to ~0.1 s for GitHub's 13 MB in workerd when the memory is fresh).
   */
  expectedBytes?: number;
  /**
   * Sees each read's bytes as they arrive, on the `expectedBytes` path only (a view valid during the call: copy
   * what must outlive it). The early store (store/early-store.ts) writes them on to R2.
   */
  onBytes?: (bytes: Uint8Array) => void;
}

/**
 * Reads `stream` (a request body), buffering up to `bufferBytes`, then streaming to R2 (see the module comment).
 * Memory: at most `bufferBytes` + two parts. The stream is cancelled at once when it passes `maxBytes`.
 * @throws BodyRefused ("over-limit" and "short": nothing is left in R2; "aborted": the client's stream broke); R2 errors.
 */
export async function receiveBody(bucket: R2Bucket, stream: ReadableStream<Uint8Array> | null, options: ReceiveOptions): Promise<ReceivedBody> {
  const { maxBytes, bufferBytes } = options;
  const partBytes = options.partBytes ?? UPLOAD_PART_BYTES;
  if (!stream) return { kind: "buffered", bytes: new Uint8Array(0) };
  const expected = options.expectedBytes;
  if (expected !== undefined && Number.isInteger(expected) && expected > 0 && expected <= bufferBytes && expected <= maxBytes) {
    let read: Awaited<ReturnType<typeof readInto>>;
    try {
      read = await readInto(stream, expected, undefined, options.onBytes);
    } catch (error) {
      throw new BodyRefused("aborted", 0, { cause: error });
    }
    // HTTP delimits the body by its Content-Length, so a longer one is a broken request, not a larger upload
    // (the stream is cancelled), and a shorter one is cut off: neither is the definition that was sent.
    if (read.more) throw new BodyRefused("aborted", expected + 1, { cause: new Error("the body is longer than its Content-Length") });
    if (read.bytes.byteLength < expected) throw short(read.bytes.byteLength, expected);
    return { kind: "buffered", bytes: read.bytes };
  }
  const reader = pieceReader(stream);
  let received = 0;
  const read = async () => {
    try {
      return await reader.read();
    } catch (error) {
      throw new BodyRefused("aborted", received, { cause: error });
    }
  };
  const tooMuch = async () => {
    await reader.cancel().catch(() => undefined);
    return new BodyRefused("over-limit", received);
  };

  // Phase 1: buffer, as every upload did before issue 12.
  const buffered: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await read();
    if (done && expected !== undefined && Number.isFinite(expected) && received < expected) throw short(received, expected);
    if (done) return { kind: "buffered", bytes: concatBytes(buffered, received) };
    received += value.byteLength;
    if (received > maxBytes) throw await tooMuch();
    buffered.push(value);
    if (received > bufferBytes) break;
  }

  // Phase 2: the body is larger than the buffer: stream it to an object of its own while hashing.
  const key = `definitions/streamed/${crypto.randomUUID()}`;
  const upload = await bucket.createMultipartUpload(key);
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  const hashing = digest.getWriter();
  const parts: R2UploadedPart[] = [];
  // One part on the wire while the next is read and hashed (memory: two parts' buffers).
  let uploading: Promise<void> | undefined;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async (final: boolean) => {
    while (pendingBytes >= partBytes || (final && pendingBytes > 0)) {
      const whole = concatBytes(pending, pendingBytes);
      const size = final ? Math.min(partBytes, whole.byteLength) : partBytes;
      await uploading;
      const number = parts.length + 1;
      const sending = upload.uploadPart(number, whole.subarray(0, size)).then((part) => void (parts[number - 1] = part));
      // Placeholder until it lands, so the next part's number follows; a failure surfaces when it is awaited.
      parts.push(undefined as unknown as R2UploadedPart);
      uploading = sending;
      sending.catch(() => undefined);
      const rest = whole.subarray(size);
      pending = rest.byteLength ? [rest] : [];
      pendingBytes = rest.byteLength;
    }
  };
  const take = async (chunk: Uint8Array) => {
    await hashing.write(chunk);
    pending.push(chunk);
    pendingBytes += chunk.byteLength;
    await flush(false);
  };
  try {
    for (const chunk of buffered.splice(0)) await take(chunk);
    for (;;) {
      const { done, value } = await read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) throw await tooMuch();
      await take(value);
    }
    // Checked before the upload completes: nothing may be stored, let alone named by its hash, for a cut-off body.
    if (expected !== undefined && Number.isFinite(expected) && received < expected) throw short(received, expected);
    await flush(true);
    await uploading;
    await hashing.close();
    await upload.complete(parts);
  } catch (error) {
    await uploading?.catch(() => undefined);
    await upload.abort().catch(() => undefined);
    throw error;
  }
  const sha256 = hexOf(await digest.digest);
  // Content-addressed: the same bytes already stored (as an alias or whole) make this object redundant.
  if (await locateDefinition(bucket, sha256)) await bucket.delete(key);
  else await putDefinitionAlias(bucket, sha256, key, received);
  return { kind: "stored", sha256, size: received };
}
