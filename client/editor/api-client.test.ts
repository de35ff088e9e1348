import { describe, expect, it } from "vitest";
import { streamText } from "./api-client";

/** A response whose body arrives in `size`-byte chunks (cutting UTF-8 sequences anywhere). */
function chunked(bytes: Uint8Array, size: number): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new Response(body);
}

describe("streamText", () => {
  const text = "\ufeff" + Array.from({ length: 4000 }, (_, i) => `line ${i}: é ü 😀 — ${"x".repeat(i % 30)}\n`).join("");
  const bytes = new TextEncoder().encode(text);
  const expected = text.slice(1); // the BOM is dropped, as Response.text() drops it

  it("gives the first part at a line end, then the rest and the body's bytes", async () => {
    const stream = await streamText(chunked(bytes, 997), 10_000);
    expect(stream.first.length).toBeGreaterThanOrEqual(10_000);
    expect(stream.first.endsWith("\n")).toBe(true);
    expect(stream.first.length).toBeLessThan(expected.length);
    const rest = (await stream.rest).take();
    expect(stream.first + rest.text).toBe(expected);
    expect(new Uint8Array(rest.bytes)).toEqual(bytes);
    expect(new TextDecoder().decode(rest.bytes)).toBe(expected);
    // Handed over once.
    expect((await stream.rest).take().text).toBe("");
  });

  it("gives everything as the first part when the body is short", async () => {
    const stream = await streamText(chunked(bytes, 1 << 20), 1 << 30);
    expect(stream.first).toBe(expected);
    const rest = (await stream.rest).take();
    expect(rest.text).toBe("");
    expect(new Uint8Array(rest.bytes)).toEqual(bytes);
  });

  it("reads nothing past the first part until `restAfter` settles", async () => {
    let pulls = 0;
    let at = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++;
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + 997));
          at += 997;
        },
      },
      { highWaterMark: 0 },
    );
    let begin!: () => void;
    const stream = await streamText(new Response(body), 10_000, new Promise<void>((r) => (begin = r)));
    const pulledForFirst = pulls;
    await new Promise((r) => setTimeout(r, 20));
    expect(pulls).toBe(pulledForFirst);
    expect(at).toBeLessThan(bytes.length);
    begin();
    const rest = (await stream.rest).take();
    expect(stream.first + rest.text).toBe(expected);
    expect(pulls).toBeGreaterThan(pulledForFirst);
  });
});
