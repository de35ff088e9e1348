/** @module Reading a request body without ever holding more than a limit. */
import { ApiError } from "./errors";

/**
 * The client went away (disconnected, or its body stream broke) before its body was read: nobody is left to
 * answer, and it is no fault of ours. `app.onError` logs it as a client abort, not as an unhandled error.
 */
export class ClientAbortError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("the client closed the connection before its request body was read", options);
    this.name = "ClientAbortError";
  }
}

/**
 * Reads the whole body, refusing as soon as it passes `maxBytes` (Content-Length is checked first, then the
 * stream is counted, since a client may omit or lie about it).
 * @throws ApiError 413 over the limit; ClientAbortError when the body stream fails (the client disconnected).
 */
export async function readBodyLimited(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new ApiError(413, "too-large", `request body exceeds the ${maxBytes} byte limit (${(maxBytes / 1048576).toFixed(0)} MiB)`);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new ClientAbortError({ cause: error });
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
