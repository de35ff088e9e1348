import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../worker/app";
import { MAX_UPLOAD_BYTES } from "../worker/routes/apis";
import { definitionKey } from "../worker/store/definitions";
import { BodyRefused, receiveBody } from "../worker/store/definition-upload";
import { createPortal, ORIGIN } from "./harness/client";

const MiB = 1024 * 1024;

/** A body of `total` bytes sent in 1 MiB chunks made by `fill`, counting what the reader pulled and whether it cancelled. */
function countedBody(total: number, fill: (index: number, chunk: Uint8Array) => void = (_, c) => c.fill(0x20)) {
  const seen = { pulled: 0, cancelled: false };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(MiB, total - seen.pulled);
      if (size <= 0) return controller.close();
      const chunk = new Uint8Array(size);
      fill(index++, chunk);
      seen.pulled += size;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

async function sha256Of(parts: Uint8Array[]): Promise<string> {
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  const w = digest.getWriter();
  for (const p of parts) await w.write(p);
  await w.close();
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function post(token: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`${ORIGIN}/v1/apis/upload?api=huge`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return app.fetch(request, env);
}

describe("upload bodies up to 100 MB (issue 12)", () => {
  it("a declared Content-Length past 100 MB is refused with 413 before a byte is read", async () => {
    const token = await createPortal("huge-declared");
    const { stream, seen } = countedBody(MAX_UPLOAD_BYTES + MiB);
    const res = await post(token, stream, { "content-length": String(101_000_000) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.message).toMatch(/100000000 byte limit/);
    expect(seen.pulled).toBeLessThanOrEqual(MiB); // at most the stream's own first pull
  });

  it("a 101 MB body without Content-Length is refused with 413 as soon as the count passes 100 MB, and leaves nothing in R2", async () => {
    const token = await createPortal("huge-chunked");
    const total = 101 * MiB;
    const { stream, seen } = countedBody(total);
    const res = await post(token, stream);
    expect(res.status).toBe(413);
    // Read up to the limit plus the chunk that crossed it (and what the stream queued ahead), never to the end.
    expect(seen.pulled).toBeLessThan(total);
    expect(seen.pulled).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 2 * MiB);
    expect(seen.cancelled).toBe(true);
    expect((await env.DEFINITIONS.list({ prefix: "uploads/" })).objects).toEqual([]);
  });

  it("receiveBody streams a body past the buffer to R2 under its SHA-256, the same bytes, in parts, with no temporary object left", async () => {
    const fill = (i: number, c: Uint8Array) => c.fill(0x61 + (i % 26));
    const total = 12 * MiB + 12345;
    const { stream } = countedBody(total, fill);
    // A small buffer and 5 MiB parts exercise the buffered-then-streamed switch and an uneven last part.
    const got = await receiveBody(env.DEFINITIONS, stream, { maxBytes: 20 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB });
    const expected: Uint8Array[] = [];
    for (let i = 0, left = total; left > 0; i++, left -= MiB) {
      const c = new Uint8Array(Math.min(MiB, left));
      fill(i, c);
      expected.push(c);
    }
    const sha = await sha256Of(expected);
    expect(got).toEqual({ kind: "stored", sha256: sha, size: total });
    const stored = await env.DEFINITIONS.get(definitionKey(sha));
    expect(stored?.size).toBe(total);
    expect(await sha256Of([new Uint8Array(await stored!.arrayBuffer())])).toBe(sha);
    expect((await env.DEFINITIONS.list({ prefix: "uploads/" })).objects).toEqual([]);
  });

  it("receiveBody hands back a body within the buffer whole, writing nothing", async () => {
    const { stream } = countedBody(2 * MiB + 7);
    const got = await receiveBody(env.DEFINITIONS, stream, { maxBytes: 20 * MiB, bufferBytes: 3 * MiB });
    expect(got.kind).toBe("buffered");
    expect(got.kind === "buffered" && got.bytes.byteLength).toBe(2 * MiB + 7);
  });

  it("receiveBody refuses past maxBytes mid-stream and aborts its multipart upload", async () => {
    const { stream, seen } = countedBody(30 * MiB);
    const refused = await receiveBody(env.DEFINITIONS, stream, { maxBytes: 12 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB }).catch((e) => e);
    expect(refused).toBeInstanceOf(BodyRefused);
    expect(refused.reason).toBe("over-limit");
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(30 * MiB);
    expect((await env.DEFINITIONS.list({ prefix: "uploads/" })).objects).toEqual([]);
  });
});
