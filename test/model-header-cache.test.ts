/**
 * The isolate's cache of model headers (store/models.ts, issue 12): bounded by the headers' stored text, not by
 * count. A header read once is served from memory (its KV value deleted here to tell); one larger than a quarter of
 * the bound is read each time instead, and older headers leave once the kept text passes the bound.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ReferenceHeader } from "../worker/openapi/model/types";
import { getHeader, putHeader } from "../worker/store/models";

function header(title: string, descriptionChars: number): ReferenceHeader {
  return {
    modelVersion: 3, sourceVersion: "3.1", openapi: "3.1.0", info: { title, version: "1", description: "d".repeat(descriptionChars) },
    servers: [], tags: [], securitySchemes: {}, counts: { operations: 0, webhooks: 0, schemas: 0, tags: 0 },
  } as unknown as ReferenceHeader;
}

/** Deletes a model's stored header, so only the isolate's cache can still answer for it. */
async function dropStored(modelKey: string): Promise<void> {
  const { keys } = await env.MODELS.list({ prefix: modelKey });
  await Promise.all(keys.map((k) => env.MODELS.delete(k.name)));
}

describe("model headers cached per isolate, bounded by their text", () => {
  it("serves a small header from memory once read, and reads one past 512 K characters each time", async () => {
    await putHeader(env.MODELS, "m/small-header", header("Small", 1_000));
    expect((await getHeader(env.MODELS, "m/small-header"))?.info.title).toBe("Small");
    await dropStored("m/small-header");
    expect((await getHeader(env.MODELS, "m/small-header"))?.info.title).toBe("Small");

    await putHeader(env.MODELS, "m/huge-header", header("Huge", 600_000));
    expect((await getHeader(env.MODELS, "m/huge-header"))?.info.title).toBe("Huge");
    await dropStored("m/huge-header");
    expect(await getHeader(env.MODELS, "m/huge-header")).toBeNull();
  });

  it("lets the least recently read headers go once the kept text passes 2 M characters", async () => {
    // Five headers of ~500 K characters: the first is gone once the fifth is kept (2.5 M > 2 M).
    for (let i = 0; i < 5; i++) {
      await putHeader(env.MODELS, `m/big-${i}`, header(`Big ${i}`, 500_000));
      expect((await getHeader(env.MODELS, `m/big-${i}`))?.info.title).toBe(`Big ${i}`);
      await dropStored(`m/big-${i}`);
    }
    expect(await getHeader(env.MODELS, "m/big-0")).toBeNull();
    expect((await getHeader(env.MODELS, "m/big-4"))?.info.title).toBe("Big 4");
  });
});
