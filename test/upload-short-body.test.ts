/**
 * @module A body shorter than its Content-Length (issue 38: 6 MB declared, 4.5 MB sent, then the connection closed)
 * is refused with 400 naming both lengths, on the early-store path (store/early-store.ts) and on the others, and
 * nothing is stored under the content address of the bytes that did arrive. A client whose connection is really
 * gone never reads the answer; what matters is that the route does not log an unhandled 500.
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../worker/app";
import { hexOf } from "../worker/content/hash";
import { BodyRefused, receiveBody } from "../worker/store/definition-upload";
import { EARLY_STORE_MIN_BYTES } from "../worker/store/early-store";
import { locateDefinition } from "../worker/store/definitions";
import { createPortal, ORIGIN } from "./harness/client";

const MiB = 1024 * 1024;

/** `total` bytes of a JSON document's white space, in 64 KiB chunks, then the end: a body cut short, not broken. */
function endsEarly(total: number): { stream: ReadableStream<Uint8Array>; bytes: Uint8Array<ArrayBuffer> } {
  const bytes = new Uint8Array(total).fill(0x20);
  bytes[0] = 0x7b; // "{": the head of a definition that never arrives
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(64 * 1024, total - sent);
      controller.enqueue(bytes.slice(sent, sent + n));
      sent += n;
    },
  });
  return { stream, bytes };
}

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => hexOf(await crypto.subtle.digest("SHA-256", bytes));

describe("a body shorter than its Content-Length", () => {
  afterEach(() => vi.restoreAllMocks());

  it("6 MB declared, 4.5 MB sent (the early-store path): 400 naming both, nothing logged as a 500, nothing stored", async () => {
    const declared = 6_000_000;
    const sent = 4_500_000;
    expect(declared).toBeGreaterThanOrEqual(EARLY_STORE_MIN_BYTES);
    const token = await createPortal("short-body");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { stream, bytes } = endsEarly(sent);
    const request = new Request(`${ORIGIN}/v1/apis/upload?api=short`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(declared) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    // Through the app itself, as client-abort.test.ts does: the request a worker receives.
    const res = await app.fetch(request, env);
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json)).toBe(400);
    expect(json.error).toEqual({
      code: "incomplete-body",
      message: `the body ended after ${sent} bytes; its Content-Length declared ${declared}`,
      details: { declared, received: sent },
    });
    expect(errors).not.toHaveBeenCalled();
    expect(await locateDefinition(env.DEFINITIONS, await sha256(bytes))).toBeUndefined();
    const list = await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.json()) as any).apis).toEqual([]);
  });

  it("a small body (no early store) and a streamed one (past the buffer) are refused the same way", async () => {
    const token = await createPortal("short-small");
    const small = endsEarly(1000);
    const res = await app.fetch(new Request(`${ORIGIN}/v1/apis/upload?api=short`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": "2000" },
      body: small.stream,
      duplex: "half",
    } as RequestInit), env);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.details).toEqual({ declared: 2000, received: 1000 });

    // Past the buffer the body goes to an R2 multipart upload: it is aborted, and no alias names the short bytes.
    const streamed = endsEarly(6 * MiB);
    const refused = await receiveBody(env.DEFINITIONS, streamed.stream, { maxBytes: 20 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB, expectedBytes: 8 * MiB }).catch((e) => e);
    expect(refused).toBeInstanceOf(BodyRefused);
    expect(refused).toMatchObject({ reason: "short", received: 6 * MiB, expected: 8 * MiB });
    expect(await locateDefinition(env.DEFINITIONS, await sha256(streamed.bytes))).toBeUndefined();
  });
});
