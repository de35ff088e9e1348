/**
 * @module Storing a handed upload body in R2 while it arrives (issue 12: GitHub's 13 MB in at most half of Redocly's
 * build-docs time, with margin).
 *
 * A body the publisher builds whole (≤ 16 MiB, publish/types.ts HANDED_BODY_MAX_BYTES) used to be put to R2 by the
 * publisher beside its build. Locally R2, KV, D1 and the Worker share one workerd thread, and that put (~0.25 s of
 * its CPU for 13 MB) only advanced while the publish awaited I/O: it ended last and held the D1 write. While the
 * body is still arriving, though, the thread mostly waits for the network. So a body with a Content-Length of at
 * least {@link EARLY_STORE_MIN_BYTES} is written on to R2 piece by piece as the route reads it (store/definition-upload.ts
 * receiveBody `onBytes`: 1 MiB pieces, each copied once; a tee of the request body cost far more, every few-KB chunk
 * crossing JavaScript twice), under a key of its own (`definitions/streamed/{uuid}`, as a body past 25 MiB is), since
 * the content address, its SHA-256, is known only at the end. {@link EarlyStore.finish} then awaits the put and
 * writes `definitions/{sha256}` as an alias naming it (store/definitions.ts), or deletes it when those bytes are
 * already stored. The route awaits that before calling the publisher, so nothing can be published naming a body not
 * stored, and a failed put fails the upload before the publisher sees it. In production R2 is remote: the put runs
 * at the upload's pace and ends soon after its last byte.
 */
import { locateDefinition, putDefinitionAlias } from "./definitions";

/**
 * Smallest declared body (bytes) stored while it arrives: 4 MiB. Below it the put is short (petstore-sized bodies:
 * a few ms) and a body stored directly under its content address (one R2 object, read in one get) is worth more
 * than the overlap.
 */
export const EARLY_STORE_MIN_BYTES = 4 * 1024 * 1024;

/** A body being stored in R2 while the route reads it (see the module comment). */
export interface EarlyStore {
  /** Writes the next bytes of the body on to R2 (copied: `bytes` may be reused once this returns). */
  write(bytes: Uint8Array): void;
  /**
   * Ends the body, awaits the put, then makes `definitions/{sha256}` name the stored bytes (an alias), or deletes them
   * when that content address is already stored. `sha256` is the hash of the bytes the route read, `size` their length.
   * @throws the R2 error (the put failed), or the body was not the declared length (the put is then abandoned);
   * nothing is left at the content address then.
   */
  finish(sha256: string, size: number): Promise<void>;
  /** The upload was refused before `finish` (empty, too large, aborted): the stored bytes are deleted once the put settles. */
  abandon(): void;
}

/**
 * Starts a put of a body declared `size` bytes long to R2, fed by {@link EarlyStore.write}.
 * Memory: the pieces written and not yet taken by the put (at most the body).
 */
export function storeWhileArriving(bucket: R2Bucket, size: number): EarlyStore {
  const key = `definitions/streamed/${crypto.randomUUID()}`;
  // A FixedLengthStream: R2 needs the length before the first byte, and it errors if the body has another.
  const fixed = new FixedLengthStream(size);
  const writer = fixed.writable.getWriter();
  const put = bucket.put(key, fixed.readable);
  put.catch(() => undefined);
  let written = 0;
  const abandon = () => {
    writer.abort(new Error("upload abandoned")).catch(() => undefined);
    void put.then(() => bucket.delete(key)).catch(() => undefined);
  };
  return {
    write(bytes: Uint8Array) {
      written += bytes.byteLength;
      // Not awaited: the route reads on while the put takes the pieces; a failure surfaces through `put`.
      writer.write(bytes.slice()).catch(() => undefined);
    },
    async finish(sha256: string, received: number) {
      if (received !== size || written !== size) {
        abandon();
        throw new Error(`the body has ${received} bytes, not the ${size} its Content-Length declared`);
      }
      writer.close().catch(() => undefined);
      await put;
      // Content-addressed: the same bytes already stored make this object redundant.
      if (await locateDefinition(bucket, sha256)) await bucket.delete(key);
      else await putDefinitionAlias(bucket, sha256, key, size);
    },
    abandon,
  };
}
