/**
 * Search shards per source (issue 37), through real publishes into one portal (miniflare D1 and KV): publishing an
 * API writes its own shard only, whatever the portal's size; re-labelling or re-laying out one API leaves the other
 * shards untouched; the portal's statistics stay the sum of its live shards'; readers filter across shards.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";
import { answerTurn, loadAssistantPortal } from "../worker/assistant/service";
import { anonymousReader } from "../worker/access/reader";
import { loadAccess } from "../worker/store/readers";
import { loadedIndexes, loadIndex, pointerFromRow, resetLoadedIndexes, searchLoaded, searchPointer } from "../worker/store/search";

/** A small definition whose words are its own (`word` in every summary), so each API is findable apart. */
const definition = (word: string, ops = 3) =>
  `openapi: 3.0.3\ninfo: { title: ${word}, version: "1" }\npaths:\n` +
  Array.from({ length: ops }, (_, i) => `  /${word}/r${i}:\n    get:\n      operationId: get${word}${i}\n      summary: Fetch ${word} record ${i}\n      responses: { '200': { description: ok } }\n`).join("");

async function kvKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await env.MODELS.list({ cursor });
    for (const k of page.keys) keys.add(k.name);
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

async function shards(slug: string): Promise<Map<string, { key: string; built: string; stats: string }>> {
  const { results } = await env.DB.prepare("SELECT s.source, s.shard_key AS key, s.built_at AS built, s.stats FROM search_shards s JOIN portals p ON p.id = s.portal_id WHERE p.slug = ?")
    .bind(slug).all<{ source: string; key: string; built: string; stats: string }>();
  return new Map(results.map((r) => [r.source, r]));
}

/** New KV keys written by `publish()`, split into search keys and the rest. */
async function writes(publish: () => Promise<void>): Promise<{ search: string[]; other: number }> {
  const before = await kvKeys();
  await publish();
  const added = [...(await kvKeys())].filter((k) => !before.has(k));
  return { search: added.filter((k) => k.startsWith("search/")), other: added.filter((k) => !k.startsWith("search/")).length };
}

const searchJson = async (slug: string, q: string) => (await (await SELF.fetch(`${ORIGIN}/p/${slug}/search.json?q=${encodeURIComponent(q)}&limit=50`)).json()) as any;

describe("search shards per source", () => {
  it("publishing the 51st API writes only its own shard, as publishing the 2nd does; the others stay untouched", async () => {
    const token = await createPortal("fifty");
    const second = await writes(async () => {
      expect((await upload(token, definition("alpha"), { api: "a00" })).status).toBe(201);
    });
    for (let i = 1; i < 50; i++) expect((await upload(token, definition(`w${i}x`), { api: `a${String(i).padStart(2, "0")}` })).status).toBe(201);
    const before = await shards("fifty");
    expect(before.size).toBe(50);
    const fiftyFirst = await writes(async () => {
      expect((await upload(token, definition("omega"), { api: "a50" })).status).toBe(201);
    });
    // One shard value (a small shard is one KV part) and as many other writes as any small publish, at any size.
    // Two values: the shard (a small shard is one KV part) and its documents, stored apart (lazy shards).
    const own = (await shards("fifty")).get("api:a50")!.key;
    const { docsKey } = JSON.parse((await env.MODELS.get(own))!) as { docsKey: string };
    expect(fiftyFirst.search.sort()).toEqual([own, docsKey].sort());
    expect(fiftyFirst.search).toHaveLength(second.search.length);
    expect(fiftyFirst.other).toBe(second.other);
    const after = await shards("fifty");
    expect(after.size).toBe(51);
    for (const [source, row] of before) expect(after.get(source)).toEqual(row);
    // Every API is found, the new one and the first.
    expect((await searchJson("fifty", "omega")).results[0].api).toBe("a50");
    expect((await searchJson("fifty", "alpha")).results[0].api).toBe("a00");
    expect((await searchJson("fifty", "fetch record")).total).toBe(51 * 3);
  });

  it("a new version label or layout of one API rebuilds that API's shard only; statistics stay the sum of the shards'", async () => {
    const token = await createPortal("relabel");
    for (const w of ["red", "green", "blue"]) expect((await upload(token, definition(w), { api: w })).status).toBe(201);
    // The bundle's guides link to the petstore's operations.
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("shardmark"))).status).toBe(201);
    const before = await shards("relabel");
    expect([...before.keys()].sort()).toEqual(["api:blue", "api:green", "api:pets", "api:red", "content"]);
    expect((await upload(token, definition("green", 5), { api: "green", version: "2" })).status).toBe(201);
    const relabelled = await shards("relabel");
    for (const s of ["api:blue", "api:pets", "api:red", "content"]) expect(relabelled.get(s)).toEqual(before.get(s));
    expect(relabelled.get("api:green")!.key).not.toBe(before.get("api:green")!.key);
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/red`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }) });
    expect(res.status).toBe(200);
    const relaid = await shards("relabel");
    for (const s of ["api:blue", "api:green", "api:pets", "content"]) expect(relaid.get(s)).toEqual(relabelled.get(s));
    expect(relaid.get("api:red")!.key).not.toBe(relabelled.get("api:red")!.key);
    expect((await searchJson("relabel", "fetch red record")).results[0].url).toContain("#");
    // The running statistics (added and subtracted publish by publish) equal the live shards' sum.
    const live = await env.DB.prepare("SELECT l.stats, l.documents FROM search_live l JOIN portals p ON p.id = l.portal_id WHERE p.slug = ?").bind("relabel").first<{ stats: string; documents: number }>();
    const sum = [...relaid.values()].map((r) => JSON.parse(r.stats)).reduce((a, b) => ({ documents: a.documents + b.documents, lengths: a.lengths.map((x: number, f: number) => x + b.lengths[f]), nonEmpty: a.nonEmpty.map((x: number, f: number) => x + b.nonEmpty[f]) }));
    expect(JSON.parse(live!.stats)).toEqual(sum);
    expect(live!.documents).toBe(sum.documents);
    expect((await searchJson("relabel", "fetch green record")).total).toBe(3 + 5 + 3 - 3 + 3);
  });

  it("keeps the live shards loaded even past the byte bound, and drops a replaced shard once the new set is searched", async () => {
    const token = await createPortal("bounded");
    for (const w of ["one", "two", "three"]) expect((await upload(token, definition(w, 20), { api: w })).status).toBe(201);
    const portal = await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind("bounded").first<{ id: number }>();
    const search = async () => {
      const pointer = await searchPointer(env.DB, portal!.id);
      const index = await loadIndex(env.MODELS, pointer!, portal!.id);
      return searchLoaded(env.MODELS, index!, () => index!.search("fetch two record", { canRead: () => true, limit: 100 }));
    };
    // A bound smaller than any one shard: each loaded shard would evict the one before it.
    resetLoadedIndexes(1);
    const first = await search();
    expect(first.total).toBe(60);
    // The shards, and the documents of those shards the results and the title rule read (lazy shards), never others.
    const docsOf = async (key: string) => (JSON.parse((await env.MODELS.get(key))!) as { docsKey: string }).docsKey;
    const liveKeys = async () => {
      const keys = [...(await shards("bounded")).values()].map((r) => r.key);
      return { shards: keys.sort(), docs: await Promise.all(keys.map(docsOf)) };
    };
    const expectLoaded = async () => {
      const live = await liveKeys();
      const loaded = loadedIndexes().keys;
      expect(loaded.filter((k) => live.shards.includes(k)).sort()).toEqual(live.shards);
      expect(loaded.filter((k) => !live.shards.includes(k)).every((k) => live.docs.includes(k))).toBe(true);
      // The results' documents are read, and kept with the live set past the bound.
      expect(loaded.length).toBeGreaterThan(live.shards.length);
      return loaded.sort();
    };
    const loadedNow = await expectLoaded();
    // Searched again: the same loaded shards and the same merged index (nothing read again, so nothing reordered).
    const again = await search();
    expect(again.results.map((h) => [h.doc.id, h.score])).toEqual(first.results.map((h) => [h.doc.id, h.score]));
    expect(first.results[0].doc.id).not.toBe("");
    expect(loadedIndexes().keys.sort()).toEqual(loadedNow);
    expect((await upload(token, definition("two", 21), { api: "two", version: "2" })).status).toBe(201);
    expect((await search()).total).toBe(61);
    await expectLoaded();
    resetLoadedIndexes();
  });

  it("a reader's query reads the shard list only when its isolate holds no merge of the row's generation", async () => {
    const token = await createPortal("generations");
    for (const w of ["red", "green", "blue"]) expect((await upload(token, definition(w), { api: w })).status).toBe(201);
    const portal = await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind("generations").first<{ id: number }>();
    let statements = 0;
    const db = new Proxy(env.DB, {
      get(target, key) {
        if (key === "prepare") return (query: string) => (statements++, target.prepare(query));
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    // What the search route reads: the pointer row's statistics and generation, not its shards.
    const readerPointer = async () => {
      const row = await env.DB.prepare("SELECT index_key AS indexKey, parts, documents, variables, built_at AS builtAt, stats, generation FROM search_live WHERE portal_id = ?").bind(portal!.id).first<any>();
      return pointerFromRow(row);
    };
    const ids = async () => {
      const pointer = await readerPointer();
      expect(pointer.shards).toBeUndefined();
      const index = await loadIndex(env.MODELS, pointer, portal!.id, db);
      return (await searchLoaded(env.MODELS, index!, () => index!.search("fetch record", { canRead: () => true, limit: 50 }))).results.map((h) => h.doc.url).sort();
    };
    resetLoadedIndexes();
    const before = (await readerPointer()).generation;
    const cold = await ids();
    expect(statements).toBe(1);
    expect(cold).toHaveLength(9);
    expect(await ids()).toEqual(cold);
    expect(statements).toBe(1);
    // A publish writes a new generation: the next query reads the shards once, and finds the new API.
    expect((await upload(token, definition("cyan"), { api: "cyan" })).status).toBe(201);
    expect((await readerPointer()).generation).not.toBe(before);
    const after = await ids();
    expect(statements).toBe(2);
    expect(after).toHaveLength(12);
    expect(after.filter((u) => u.includes("/cyan/"))).toHaveLength(3);
    expect(await ids()).toEqual(after);
    expect(statements).toBe(2);
    // Through the route too.
    expect((await searchJson("generations", "fetch cyan record")).results[0].url).toContain("/cyan/");
    resetLoadedIndexes();
  });

  it("an assistant turn reads the portal row's generation, not the shard list, and the shards only for a new generation", async () => {
    const token = await createPortal("asks");
    for (const w of ["amber", "coral"]) expect((await upload(token, definition(w), { api: w })).status).toBe(201);
    const portal = await loadAssistantPortal(env.DB, "asks");
    expect(portal!.pointer!.shards).toBeUndefined();
    expect(typeof portal!.pointer!.generation).toBe("number");
    let shardLists = 0;
    const db = new Proxy(env.DB, {
      get(target, key) {
        if (key === "prepare") return (query: string) => (query.includes("search_shards") && shardLists++, target.prepare(query));
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ask = async (question: string) => {
      const p = await loadAssistantPortal(db, "asks");
      return answerTurn({ env: { ...env, DB: db }, portal: p!, reader: anonymousReader("en"), access: await loadAccess(env.DB, p!.id), owner: "test:asks", question, credits: { used: null, remaining: null } });
    };
    resetLoadedIndexes();
    const first = await ask("How do I fetch an amber record?");
    expect(first.sources.some((s) => s.url.includes("/amber/"))).toBe(true);
    expect(shardLists).toBe(1);
    await ask("How do I fetch a coral record?");
    expect(shardLists).toBe(1);
    expect((await upload(token, definition("olive"), { api: "olive" })).status).toBe(201);
    const after = await ask("How do I fetch an olive record?");
    expect(after.sources.some((s) => s.url.includes("/olive/"))).toBe(true);
    expect(shardLists).toBe(2);
    resetLoadedIndexes();
  });
});
