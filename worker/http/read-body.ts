/** @module Reading a request body without ever holding more than a limit. */
import { ApiError } from "./errors";

/**
 * Reads the whole body, refusing as soon as it passes `maxBytes` (Content-Length is checked first, then the
 * stream is counted, since a client may omit or lie about it).
 * @throws ApiError 413 over the limit.
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
    const { done, value } = await reader.read();
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
