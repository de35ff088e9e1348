/**
 * The search index in KV (store/search.ts) as the streamed build writes it (issue 12): UTF-8 blocks written in parts
 * without being joined, under the same content address the whole string had, and read back by the read path.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256 } from "../worker/content/hash";
import { blocksText } from "../worker/search/bytes";
import { documentParts } from "../worker/search/document-set";
import { SearchIndexBuilder, type SearchDocument } from "../worker/search/index";
import { getDocumentParts, getDocuments, loadedIndexBytes, loadedIndexes, loadIndex, putDocumentParts, putIndex, resetLoadedIndexes } from "../worker/store/search";

const docs: SearchDocument[] = Array.from({ length: 300 }, (_, i) => ({
  id: `op${i}`, kind: "operation", title: `${["Create", "Delete", "List"][i % 3]} widget ${i} ✓`, body: `Widgets of size ${i}, café ${"text ".repeat(i % 40)}`,
  url: `/reference/w/1/op${i}`, locale: "en", labels: [], fields: { operationId: `widgets_${i}`, method: "GET", path: `/widgets/${i}` },
}));

function blocks(): Uint8Array[] {
  const builder = new SearchIndexBuilder({ blockBytes: 1000 });
  for (const d of docs) builder.add(d);
  return builder.finish();
}

describe("search index storage", () => {
  it("writes blocks in parts under the SHA-256 of the whole text, releasing them, and loads them back", async () => {
    const written = blocks();
    const text = blocksText(written);
    const at = await putIndex(env.MODELS, written, 7_000);
    expect(at.key).toBe(`search/i/${await sha256(text)}.txt`);
    expect(at.parts).toBe(Math.ceil(new TextEncoder().encode(text).length / 7_000));
    expect(written.every((b) => b.byteLength === 0)).toBe(true);
    const parts = await Promise.all(Array.from({ length: at.parts }, (_, i) => env.MODELS.get(i ? `${at.key}/${i}` : at.key, "arrayBuffer")));
    expect(parts.slice(0, -1).every((p) => p!.byteLength === 7_000)).toBe(true);
    // The same text given whole makes the same key and the same values.
    expect(await putIndex(env.MODELS, text, 7_000)).toEqual(at);
    const index = await loadIndex(env.MODELS, { indexKey: at.key, parts: at.parts });
    const hits = index!.search("delete widget 42", { canRead: () => true });
    expect(hits.results[0].doc.id).toBe("op42");
    expect(index!.size).toBe(docs.length);
  });

  it("loads an index of one part, and nothing when a part between the first and the last is missing", async () => {
    const builder = new SearchIndexBuilder();
    for (const d of docs.slice(0, 120)) builder.add(d);
    const text = blocksText(builder.finish());
    const whole = await putIndex(env.MODELS, text);
    expect(whole.parts).toBe(1);
    expect((await loadIndex(env.MODELS, { indexKey: whole.key, parts: 1 }))!.search("list widget 3", { canRead: () => true }).results[0].doc.id).toBe("op3");
    const other = new SearchIndexBuilder();
    for (const d of docs.slice(0, 150)) other.add(d);
    const at = await putIndex(env.MODELS, blocksText(other.finish()), 5_000);
    expect(at.parts).toBeGreaterThan(3);
    await env.MODELS.delete(`${at.key}/2`);
    expect(await loadIndex(env.MODELS, { indexKey: at.key, parts: at.parts })).toBeUndefined();
  });

  it("caches document parts as written and reads them back, or nothing when a part is missing", async () => {
    const parts = documentParts(docs, 5_000);
    expect(parts.length).toBeGreaterThan(3);
    await putDocumentParts(env.MODELS, "test/doc-parts", parts);
    expect(await getDocumentParts(env.MODELS, "test/doc-parts")).toEqual(parts);
    expect(await getDocuments(env.MODELS, "test/doc-parts")).toEqual(docs);
    await env.MODELS.delete("test/doc-parts/2");
    expect(await getDocumentParts(env.MODELS, "test/doc-parts")).toBeUndefined();
  });
});

describe("loaded indexes per isolate (issue 12: bounded by bytes, not count)", () => {
  /** A distinct index (its own content address) of `n` documents, stored; its pointer and stored size. */
  async function stored(tag: string, n: number) {
    const builder = new SearchIndexBuilder();
    for (let i = 0; i < n; i++) builder.add({ ...docs[i % docs.length], id: `${tag}-${i}`, title: `${tag} widget ${i}` });
    const written = builder.finish();
    const bytes = written.reduce((s, b) => s + b.byteLength, 0);
    const at = await putIndex(env.MODELS, written);
    return { pointer: { indexKey: at.key, parts: at.parts }, bytes };
  }

  it("drops the least recently used indexes once their estimated bytes pass the bound, never the one just loaded", async () => {
    const [a, b, c, d] = [await stored("a", 200), await stored("b", 200), await stored("c", 200), await stored("d", 200)];
    const each = Math.max(...[a, b, c, d].map((x) => loadedIndexBytes(x.bytes)));
    try {
      // Room for two of them (and a little), not three.
      resetLoadedIndexes(Math.floor(each * 2.5));
      for (const x of [a, b, c]) expect((await loadIndex(env.MODELS, x.pointer))!.size).toBe(200);
      expect(loadedIndexes().keys).toEqual([b.pointer.indexKey, c.pointer.indexKey]);
      // A hit moves b to the most recent end: loading d then drops c, not b.
      await loadIndex(env.MODELS, b.pointer);
      await loadIndex(env.MODELS, d.pointer);
      expect(loadedIndexes().keys).toEqual([b.pointer.indexKey, d.pointer.indexKey]);
      expect(loadedIndexes().bytes).toBe(loadedIndexBytes(b.bytes) + loadedIndexBytes(d.bytes));
      // An index alone past the bound is still kept (the live one is not read again per query), the rest dropped.
      resetLoadedIndexes(each - 1);
      await loadIndex(env.MODELS, a.pointer);
      await loadIndex(env.MODELS, c.pointer);
      expect(loadedIndexes().keys).toEqual([c.pointer.indexKey]);
      // A missing index is not kept, and counts nothing.
      expect(await loadIndex(env.MODELS, { indexKey: "search/i/missing.txt", parts: 1 })).toBeUndefined();
      expect(loadedIndexes().keys).toEqual([c.pointer.indexKey]);
      expect(loadedIndexes().bytes).toBe(loadedIndexBytes(c.bytes));
    } finally {
      resetLoadedIndexes();
    }
  });

  it("drops a portal's previous index once the portal's searches load its new one, unless another portal has it live", async () => {
    const [a, b, c] = [await stored("pa", 120), await stored("pb", 120), await stored("pc", 120)];
    try {
      resetLoadedIndexes();
      await loadIndex(env.MODELS, a.pointer, 1);
      await loadIndex(env.MODELS, a.pointer, 2);
      // Portal 1 publishes: its new index b replaces a, which portal 2 still has live.
      await loadIndex(env.MODELS, b.pointer, 1);
      expect(loadedIndexes().keys).toEqual([a.pointer.indexKey, b.pointer.indexKey]);
      // Portal 2 publishes too: nobody has a live any more.
      await loadIndex(env.MODELS, c.pointer, 2);
      expect(loadedIndexes().keys).toEqual([b.pointer.indexKey, c.pointer.indexKey]);
      expect(loadedIndexes().bytes).toBe(loadedIndexBytes(b.bytes) + loadedIndexBytes(c.bytes));
      // Without a portal (a caller that does not say), nothing is dropped.
      await loadIndex(env.MODELS, a.pointer);
      expect(loadedIndexes().keys).toEqual([b.pointer.indexKey, c.pointer.indexKey, a.pointer.indexKey]);
    } finally {
      resetLoadedIndexes();
    }
  });

  it("estimates what an index retains from its stored size: ×4 parsed into objects, ×1.5 through the light reader", () => {
    expect(loadedIndexBytes(1_000_000)).toBe(4_000_000);
    expect(loadedIndexBytes(20 * 1024 * 1024)).toBe(30 * 1024 * 1024);
  });
});
