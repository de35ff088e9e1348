/** @module Reading a request body without ever holding more than a limit. */
import { formatBytes } from "../lib/format-bytes";
import { readStreamCapped } from "../lib/read-stream";
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
    new ApiError(413, "too-large", `request body exceeds the ${maxBytes} byte limit (${formatBytes(maxBytes)})`);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  let read: Awaited<ReturnType<typeof readStreamCapped>>;
  try {
    read = await readStreamCapped(request.body, maxBytes);
  } catch (error) {
    throw new ClientAbortError({ cause: error });
  }
  if (read.truncated) throw tooLarge();
  return read.bytes;
}
