import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../worker/store/db";
import { loadReaderHead, loadReaderRest, readerHeadHint, StaleReaderHead } from "../worker/store/reader";
import { createPortal, upload } from "./harness/client";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";

/** `d1` with its `prepare` and `batch` calls counted (each batch is one round trip). */
function countingD1(d1: D1Database) {
  const calls = { prepare: 0, batch: 0 };
  const counted = new Proxy(d1, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "prepare" || key === "batch") calls[key]++;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1: counted, calls };
}

describe("a reference page's reads from the head kept per isolate (store/reader.ts)", () => {
  it("a warm page is one D1 batch, with no query built; a moved head or an unknown label is StaleReaderHead", async () => {
    const token = await createPortal("head-kept");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    const { d1, calls } = countingD1(env.DB);
    const db = getDb(d1);
    const recheck = { portalSlug: "head-kept", apiSlug: "pets" };
    const cold = await loadReaderHead(db, "head-kept", "pets");
    expect(readerHeadHint("head-kept", "pets")?.api.id).toBe(cold.api!.id);
    // The first run builds and prepares the batch's queries; the next ones only bind values.
    const first = await loadReaderRest(db, env, readerHeadHint("head-kept", "pets")!, "v1", "showpetbyid", undefined, true, recheck);
    expect(first.operation?.slug).toBe("showpetbyid");
    const before = { ...calls };
    const warm = await loadReaderRest(db, env, readerHeadHint("head-kept", "pets")!, "v1", "listpets", undefined, true, recheck);
    expect({ prepare: calls.prepare - before.prepare, batch: calls.batch - before.batch }).toEqual({ prepare: 0, batch: 1 });
    expect(warm.operation?.slug).toBe("listpets");
    expect(warm.version.label).toBe("v1");
    expect(warm.page?.access).toBeDefined();
    // A publish moves the live version: the kept head no longer holds, and the caller reads it afresh.
    const hint = readerHeadHint("head-kept", "pets")!;
    expect((await upload(token, petstoreV3, { api: "pets", version: "v2" })).status).toBe(201);
    await expect(loadReaderRest(db, env, hint, "v2", "listpets", undefined, true, recheck)).rejects.toBeInstanceOf(StaleReaderHead);
    const fresh = await loadReaderHead(db, "head-kept", "pets");
    expect(fresh.liveLabel).toBe("v2");
    expect((await loadReaderRest(db, env, readerHeadHint("head-kept", "pets")!, "v2", "listpets", undefined, true, recheck)).live).toBe(true);
    await expect(loadReaderRest(db, env, readerHeadHint("head-kept", "pets")!, "v9", "listpets", undefined, true, recheck)).rejects.toBeInstanceOf(StaleReaderHead);
  });
});
