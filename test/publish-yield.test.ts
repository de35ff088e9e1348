/**
 * @module A big publish gives the event loop turns (issue 14: while a 9,000-operation publish ran, a page of another
 * portal served by the same isolate waited 7-10 s for all of it).
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";
import { createPortal, getPage, upload } from "./harness/client";
import { CHUNK_TARGET_CHARS, putSlices, YIELD_EVERY_CHUNKS } from "../worker/store/models";
import type { OperationSlice } from "../worker/openapi/model/types";

/** Counts turns of the event loop (setTimeout 0 callbacks) until stopped. */
function turnCounter() {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return () => ((running = false), turns);
}

it("putSlices lets the event loop run every few chunks, even when it writes nothing (the model is already stored)", async () => {
  const filler = "x".repeat(10_000);
  const slugs = Array.from({ length: 600 }, (_, i) => `op${i}`);
  const stop = turnCounter();
  const locations = await putSlices(env.MODELS, "m/test/yield", slugs, (slug) => ({ slug, filler }) as unknown as OperationSlice, false);
  const turns = stop();
  const chunks = Math.max(...[...locations.values()].map((l) => l.chunk)) + 1;
  expect(chunks).toBeGreaterThan(4 * YIELD_EVERY_CHUNKS);
  expect(chunks).toBeLessThanOrEqual(Math.ceil((600 * 10_030) / CHUNK_TARGET_CHARS) + 1);
  // Synchronous work would have let no turn in at all.
  expect(turns).toBeGreaterThanOrEqual(Math.floor((chunks - 1) / YIELD_EVERY_CHUNKS));
});

it("a page of another portal is answered while a 3,000-operation publish is still running", async () => {
  const readerToken = await createPortal("yield-reader");
  expect((await upload(readerToken, petstoreV3, { api: "pets" })).status).toBe(201);
  const page = "/p/yield-reader/reference/pets/1.0.0/listpets";
  expect((await getPage(page)).status).toBe(200);

  const paths = Array.from({ length: 3000 }, (_, i) => `  /fuzz/p${i}:\n    get:\n      operationId: fuzz${i}\n      responses:\n        "200":\n          description: ok\n`).join("");
  const big = `openapi: 3.0.3\ninfo:\n  title: Big\n  version: "1"\npaths:\n${paths}`;
  const bigToken = await createPortal("yield-big");
  let settled = false;
  const publishing = upload(bigToken, big, { api: "big" }).finally(() => (settled = true));
  const during: number[] = [];
  // A few pages, not a loop until the publish ends: pages and the publish share the isolate, and a page after
  // page would slow the publish as much as the publish used to hold the pages.
  for (let i = 0; i < 3 && !settled; i++) {
    const r = await getPage(page);
    expect(r.status).toBe(200);
    if (!settled) during.push(r.status);
  }
  expect(settled).toBe(false);
  const published = await publishing;
  expect(published.status).toBe(201);
  expect(published.json.operations).toBe(3000);
  expect(during).toEqual([200, 200, 200]);
});
