/**
 * Search shards merged at query time (issue 37) answer exactly as one index built from the same documents in the
 * same order: results, order, scores, totals, facets, suggestions, for every reader. Random corpora (fast-check,
 * fixed seed) split at random points, with words that make typos, completions, compounds, aliases and operation
 * verb pairs (which only recur, hence only count, across shards).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blocksText } from "./bytes";
import { buildSearchIndex, loadSearchIndex, type SearchDocument, type SearchOptions } from "./index";
import { addStats, emptyStats, SearchShardBuilder, type ShardStats } from "./shard-build";
import { loadSearchShard, mergeShards, withShardDocuments } from "./shards";

const WORDS = ["widget", "widgets", "gadget", "gadgetwidget", "delete", "remove", "create", "list", "zorblax", "zorblaq", "repository", "repo", "webhook", "web", "hook", "wid", "gad", "the", "of"];
const LABELS = [[], [], ["staff"], ["beta"], ["staff", "beta"]];
const SENTENCES = ["", "The zorblax (formerly known as quibbit) is renamed.", "A widget is a small gadget that sits.", "Remove a widget from the list."];

const docArb = fc.record({
  kind: fc.constantFrom("operation", "operation", "guide", "changelog"),
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
  section: fc.option(fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }), { nil: undefined }),
  body: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }),
  sentence: fc.constantFrom(...SENTENCES),
  labels: fc.constantFrom(...LABELS),
  locale: fc.constantFrom("en", "en", "fr"),
  operationId: fc.option(fc.tuple(fc.constantFrom("Delete", "Create", "Zap", "Remove"), fc.constantFrom("Widget", "Gadget")), { nil: undefined }),
  params: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
});
type Spec = typeof docArb extends fc.Arbitrary<infer T> ? T : never;
const queryArb = fc.tuple(fc.array(fc.constantFrom(...WORDS, "widgt", "zorbla", "deleet", "repos", "gadg", "quibbit", "DeleteWidget"), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([w, space]) => w.join(" ") + (space ? " " : ""));

function documents(specs: Spec[]): SearchDocument[] {
  return specs.map((s, i) => ({
    id: `d${i}`, kind: s.kind as SearchDocument["kind"], title: s.title.join(" "), ...(s.section ? { section: s.section.join(" ") } : {}),
    body: `${s.sentence} ${s.body.join(" ")}`, url: `/d${i}`, locale: s.locale, labels: s.labels,
    fields: s.operationId ? { operationId: s.operationId.join(""), parameters: s.params, method: "GET" } : undefined,
  }));
}

/** One loaded shard of `docs` and its statistics. */
function shardOf(docs: SearchDocument[]) {
  const builder = new SearchShardBuilder({ blockBytes: 64 });
  for (const d of docs) builder.add(d);
  const built = builder.finishShard();
  return { shard: loadSearchShard(blocksText(built.blocks)), stats: built.stats };
}

/**
 * Builds one shard per slice of `docs` (cut at `cuts`), loads them, merges them with their summed statistics.
 * `before`: documents of a shard that a previous merge had in the first shard's place (a publish replaced it):
 * the merge is then derived from that one's vocabulary (shard-vocabulary.ts), as a reader's isolate does.
 */
function sharded(docs: SearchDocument[], cuts: number[], before?: SearchDocument[]) {
  const bounds = [0, ...[...new Set(cuts.map((c) => c % (docs.length + 1)))].sort((a, b) => a - b), docs.length];
  let stats: ShardStats = emptyStats();
  const shards = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const builder = new SearchShardBuilder({ blockBytes: 64 });
    for (const d of docs.slice(bounds[k], bounds[k + 1])) builder.add(d);
    const built = builder.finishShard();
    stats = addStats(stats, built.stats);
    shards.push(loadSearchShard(blocksText(built.blocks)));
  }
  if (!before) return mergeShards(shards, stats);
  const old = shardOf(before);
  const previous = mergeShards([old.shard, ...shards.slice(1)], addStats(addStats(stats, shards[0].stats, -1), old.stats));
  // The previous merge is searched first, as it was live before the publish (its lazily built parts exist).
  previous.search("widget gadgt", { canRead: () => true });
  return mergeShards(shards, stats, previous);
}


const READERS: Array<(labels: string[]) => boolean> = [() => true, (l) => l.length === 0, (l) => l.length === 0 || l.every((x) => x === "staff")];

function expectSame(q: string, opts: SearchOptions, one: ReturnType<typeof loadSearchIndex>, many: ReturnType<typeof mergeShards>) {
  const a = one.search(q, opts);
  const b = many.search(q, opts);
  expect(b.results.map((h) => [h.doc.id, h.snippet])).toEqual(a.results.map((h) => [h.doc.id, h.snippet]));
  b.results.forEach((h, i) => expect(h.score).toBeCloseTo(a.results[i].score, 9));
  expect(b.total).toBe(a.total);
  expect(b.facets).toEqual(a.facets);
  expect(b.suggestions).toEqual(a.suggestions);
}

describe("search shards merged equal one index over the same documents", () => {
  it("on random corpora cut into random shards, for every reader and filter", () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 24 }), fc.array(fc.nat(), { maxLength: 5 }), queryArb, fc.nat(READERS.length - 1), fc.constantFrom(undefined, "fr", "operation"), (specs, cuts, q, r, filter) => {
        const docs = documents(specs);
        const one = loadSearchIndex(buildSearchIndex(docs));
        const many = sharded(docs, cuts);
        expect(many.size).toBe(one.size);
        const opts: SearchOptions = { canRead: READERS[r], limit: 100, ...(filter === "fr" ? { locale: "fr" } : filter ? { kind: filter } : {}) };
        expectSame(q, opts, one, many);
      }),
      { seed: 37, numRuns: 300 },
    );
  });

  it("derived from the merge before a publish (one shard replaced), on random corpora", () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 24 }), fc.array(docArb, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 5 }), queryArb, fc.nat(READERS.length - 1), (specs, replaced, cuts, q, r) => {
        const docs = documents(specs);
        const one = loadSearchIndex(buildSearchIndex(docs));
        const many = sharded(docs, cuts, documents(replaced).map((d) => ({ ...d, id: `old-${d.id}`, url: `/old${d.url}` })));
        expect(many.size).toBe(one.size);
        expectSame(q, { canRead: READERS[r], limit: 100 }, one, many);
      }),
      { seed: 3437, numRuns: 300 },
    );
  });

  it("counts an operation verb pair that recurs only across shards, as one index does", () => {
    // Made-up verbs (no thesaurus relates them): "zap" in operationIds, "blorp" in their summaries. The pair counts
    // once it recurs (twice), once per shard here, and "zap" must start some summary (the third shard's).
    const op = (id: string, opId: string, title: string): SearchDocument => ({ id, kind: "operation", title, body: "", url: `/${id}`, locale: "en", labels: [], fields: { operationId: opId } });
    const docs = [op("a", "ZapThing", "Blorp a thing"), op("g", "ZapGizmo", "Zap the gizmo"), op("b", "ZapWidget", "Blorp a widget")];
    const one = loadSearchIndex(buildSearchIndex(docs));
    const many = sharded(docs, [1, 2]);
    const ids = (x: { search: typeof one.search }) => x.search("blorp gizmo", { canRead: () => true }).results.map((h) => h.doc.id);
    // The gizmo operation is found through the mined relation (the test fails if the relation is lost across shards).
    expect(ids(one)).toContain("g");
    expect(ids(many)).toEqual(ids(one));
  });
});

/**
 * Lazy shards (LAZY_SHARD_FORMAT): each shard's documents stored apart, in `stored` by key, read through
 * withShardDocuments only when a search reads them. `loaded` lists the keys read, in order.
 */
function shardedLazy(docs: SearchDocument[], cuts: number[]) {
  const bounds = [0, ...[...new Set(cuts.map((c) => c % (docs.length + 1)))].sort((a, b) => a - b), docs.length];
  let stats: ShardStats = emptyStats();
  const shards = [];
  const stored = new Map<string, Uint8Array>();
  for (let k = 0; k + 1 < bounds.length; k++) {
    const builder = new SearchShardBuilder({ blockBytes: 64, lazyDocs: true });
    for (const d of docs.slice(bounds[k], bounds[k + 1])) builder.add(d);
    const key = `docs-${k}`;
    stored.set(key, new TextEncoder().encode(blocksText(builder.finishDocs())));
    const built = builder.finishShard({ key, parts: 1 });
    stats = addStats(stats, built.stats);
    // Alternately the light reader and JSON.parse, so both read the lazy format.
    const text = blocksText(built.blocks);
    shards.push(loadSearchShard(k % 2 ? new TextEncoder().encode(text) : text));
  }
  const index = mergeShards(shards, stats);
  const loaded: string[] = [];
  const search = (q: string, opts: SearchOptions) =>
    withShardDocuments(index, () => index.search(q, opts), async (t) => {
      loaded.push(t.key);
      return stored.get(t.key);
    });
  return { index, search, loaded, shards: bounds.length - 1 };
}

/** Readers by labels and by the portal's policy for a path (a gated section: `/guides/secret`). */
const LAZY_READERS: Array<(labels: string[], policyPath?: string) => boolean> = [
  () => true,
  (l) => l.length === 0,
  (l, path) => l.length === 0 && path !== "/guides/secret",
  (l, path) => (l.length === 0 || l.includes("staff")) && path !== "/guides/secret",
];

describe("lazy shards (documents stored apart) answer as shards loaded whole", () => {
  it("on random corpora, for every reader (labels and gated paths), filter, prefix and typo", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(docArb, { minLength: 1, maxLength: 24 }), fc.array(fc.nat(), { maxLength: 5 }), queryArb, fc.nat(LAZY_READERS.length - 1), fc.constantFrom(undefined, "fr", "operation"), async (specs, cuts, q, r, filter) => {
        const docs = documents(specs).map((d, i) => (!d.labels.length && i % 3 === 0 ? { ...d, policyPath: "/guides/secret" } : d));
        const one = loadSearchIndex(buildSearchIndex(docs));
        const lazy = shardedLazy(docs, cuts);
        const opts: SearchOptions = { canRead: LAZY_READERS[r], limit: 5, ...(filter === "fr" ? { locale: "fr" } : filter ? { kind: filter } : {}) };
        const a = one.search(q, opts);
        const b = await lazy.search(q, opts);
        expect(b.results.map((h) => [h.doc, h.snippet])).toEqual(a.results.map((h) => [h.doc, h.snippet]));
        b.results.forEach((h, i) => expect(h.score).toBeCloseTo(a.results[i].score, 9));
        expect(b.total).toBe(a.total);
        expect(b.facets).toEqual(a.facets);
        expect(b.suggestions).toEqual(a.suggestions);
        // Each shard's documents are read at most once, and only those of shards a result or a title rule needed.
        expect(new Set(lazy.loaded).size).toBe(lazy.loaded.length);
        expect(lazy.loaded.length).toBeLessThanOrEqual(lazy.shards);
      }),
      { seed: 3737, numRuns: 300 },
    );
  });

  it("reads no shard's documents for a query nothing matches, and only the matching shard's for a rare word", async () => {
    const doc = (i: number, title: string): SearchDocument => ({ id: `d${i}`, kind: "operation", title, body: "", url: `/d${i}`, locale: "en", labels: [] });
    const docs = Array.from({ length: 40 }, (_, i) => doc(i, i === 33 ? "Zorblax the widget" : `Gadget number ${i}`));
    const lazy = shardedLazy(docs, [10, 20, 30]);
    expect((await lazy.search("quibbitz", { canRead: () => true })).total).toBe(0);
    expect(lazy.loaded).toEqual([]);
    const found = await lazy.search("zorblax", { canRead: () => true });
    expect(found.results.map((h) => h.doc.title)).toEqual(["Zorblax the widget"]);
    expect(lazy.loaded).toEqual(["docs-3"]);
    // Attached once: the same query again reads nothing more.
    await lazy.search("zorblax", { canRead: () => true });
    expect(lazy.loaded).toEqual(["docs-3"]);
  });
});
