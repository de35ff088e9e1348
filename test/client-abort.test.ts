import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../worker/app";
import { ClientAbortError, readBodyLimited } from "../worker/http/read-body";
import { createPortal, ORIGIN } from "./harness/client";

/** A body that sends some bytes, then breaks as a dropped connection does. */
function brokenBody(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode("openapi: 3.0.3\ninfo:\n"));
      } else controller.error(new Error("connection reset by peer"));
    },
  });
}

describe("a client gone mid-body", () => {
  afterEach(() => vi.restoreAllMocks());

  it("readBodyLimited reports it as a ClientAbortError, not as a 413 or a generic failure", async () => {
    const request = new Request("http://x/", { method: "POST", body: brokenBody(), duplex: "half" } as RequestInit);
    await expect(readBodyLimited(request, 1024)).rejects.toBeInstanceOf(ClientAbortError);
  });

  it("the upload is logged as a client abort (status 499), never as an unhandled 500", async () => {
    const token = await createPortal("aborts");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const request = new Request(`${ORIGIN}/v1/apis/upload?api=x`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" },
      body: brokenBody(),
      duplex: "half",
    } as RequestInit);
    // Through the app itself (SELF would fail the test's own fetch first): the same request a worker receives.
    const res = await app.fetch(request, env);
    expect(res.status).toBe(499);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).toHaveBeenCalledWith("client abort", "POST", "/v1/apis/upload", expect.stringContaining("connection reset"));
    // Nothing was published.
    const list = await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.json()) as any).apis).toEqual([]);
  });
});
