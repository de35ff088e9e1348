import { describe, expect, it } from "vitest";
import { fuse } from "./fuse";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "./index";
import { accessKey, RRF_K } from "./semantic";

const doc = (id: string, title: string, body = "", extra: Partial<SearchDocument> = {}): SearchDocument => ({
  id, kind: "operation", title, body, url: `/x/${id}`, locale: "en", labels: [], ...extra,
});
const vec = (id: string) => `v-${id}`;
/** An index whose every document has a vector id `v-{doc id}`. */
const engine = (docs: SearchDocument[]) => loadSearchIndex(buildSearchIndex(docs, { vectors: new Map(docs.map((d) => [d.id, vec(d.id)])) }));
const all = () => true;

const DOCS = [
  doc("refund", "Refund a charge", "Returns money to the card that paid.", { fields: { operationId: "refunds_create" } }),
  doc("charge", "Create a charge", "Charges a card.", { fields: { operationId: "charges_create" } }),
  doc("payout", "Create a payout", "Sends your balance to your bank account.", { fields: { operationId: "payouts_create" } }),
  doc("secret", "Partner settlement", "Settlement terms for partners.", { labels: ["partners"] }),
  doc("guide", "Money back", "How customers get money back.", { kind: "guide", locale: "en" }),
  doc("guide-fr", "Remboursement", "Comment rembourser un client.", { kind: "guide", locale: "fr" }),
];

describe("reciprocal rank fusion", () => {
  it("sums 1/(k + rank) over both lists: a document both lists rank beats one that only one list ranks first", () => {
    const out = fuse([{ doc: 1, score: 10, exact: false }, { doc: 2, score: 9, exact: false }], [2, 3]);
    expect(out.map((h) => h.doc)).toEqual([2, 1, 3]);
    // Scaled so that lexical rank 1 alone keeps the top lexical score.
    expect(out[1].score).toBeCloseTo(10, 6);
    expect(out[0].score).toBeCloseTo((1 / (RRF_K + 2) + 1 / (RRF_K + 1)) * (RRF_K + 1) * 10, 6);
  });

  it("keeps the leading exact lexical hits first, in lexical order, and scores never increase down the list", () => {
    const out = fuse([{ doc: 1, score: 10, exact: true }, { doc: 2, score: 4, exact: false }, { doc: 5, score: 3, exact: true }], [7, 2, 5, 8]);
    expect(out[0].doc).toBe(1);
    // doc 5 is exact but behind a non-exact hit: it is fused like the rest (only the leading run is pinned).
    expect(out.map((h) => h.doc).slice(1)).toEqual([2, 5, 7, 8]);
    for (let i = 1; i < out.length; i++) expect(out[i - 1].score).toBeGreaterThanOrEqual(out[i].score);
  });

  it("with no lexical hits, the semantic order stands", () => {
    expect(fuse([], [4, 2, 4, 9]).map((h) => h.doc)).toEqual([4, 2, 9]);
  });
});

describe("the engine fuses semantic matches after the reader's filters", () => {
  it("a semantic-only match appears, and counts in total and facets", () => {
    const index = engine(DOCS);
    // "reimburse" matches no word of any document.
    expect(index.search("reimburse", { canRead: all }).total).toBe(0);
    const r = index.search("reimburse", { canRead: all, semantic: [vec("refund"), vec("guide")] });
    expect(r.results.map((h) => h.doc.id)).toEqual(["refund", "guide"]);
    expect(r.total).toBe(2);
    expect(r.facets).toEqual({ kind: { operation: 1, guide: 1 } });
    // A semantic-only result still gets a snippet (the body's opening), escaped.
    expect(r.results[0].snippet).toContain("Returns money");
  });

  it("an exact lexical hit stays first whatever the vectors rank first", () => {
    const index = engine(DOCS);
    const r = index.search("create a payout", { canRead: all, semantic: [vec("charge"), vec("refund"), vec("payout")] });
    expect(r.results[0].doc.id).toBe("payout");
    expect(r.results.map((h) => h.doc.id)).toContain("refund");
  });

  it("a vector whose document the reader may not open never contributes to results, totals or facets", () => {
    const index = engine(DOCS);
    const publicOnly = (labels: string[]) => labels.length === 0;
    const r = index.search("settlement", { canRead: publicOnly, semantic: [vec("secret"), vec("payout")] });
    expect(r.results.map((h) => h.doc.id)).toEqual(["payout"]);
    expect(r.total).toBe(1);
    expect(JSON.stringify(r)).not.toMatch(/partner|settlement terms/i);
    // A partner sees it.
    expect(index.search("settlement", { canRead: all, semantic: [vec("secret")] }).results[0].doc.id).toBe("secret");
  });

  it("ids the index does not list (a publish not yet live, a document that left) map to nothing", () => {
    const index = engine(DOCS);
    const r = index.search("reimburse", { canRead: all, semantic: ["v-unknown", "v-gone", vec("refund")] });
    expect(r.results.map((h) => h.doc.id)).toEqual(["refund"]);
    expect(r.total).toBe(1);
    // An index built without vectors ignores semantic ids altogether.
    const plain = loadSearchIndex(buildSearchIndex(DOCS));
    expect(plain.search("reimburse", { canRead: all, semantic: [vec("refund")] }).total).toBe(0);
    expect(plain.semanticScope({ canRead: all })).toBeUndefined();
    expect(plain.vectorIds()).toEqual([]);
  });

  it("locale and kind filters apply to semantic matches too (kind after facets)", () => {
    const index = engine(DOCS);
    const fr = index.search("reimburse", { canRead: all, locale: "fr", semantic: [vec("guide"), vec("guide-fr")] });
    expect(fr.results.map((h) => h.doc.id)).toEqual(["guide-fr"]);
    const guides = index.search("reimburse", { canRead: all, kind: "guide", semantic: [vec("refund"), vec("guide")] });
    expect(guides.results.map((h) => h.doc.id)).toEqual(["guide"]);
    expect(guides.total).toBe(1);
    expect(guides.facets).toEqual({ kind: { operation: 1, guide: 1 } });
  });

  it("the semantic scope holds the access keys of readable documents only, and the locales when one was asked", () => {
    const index = engine(DOCS);
    expect(index.semanticScope({ canRead: (l) => l.length === 0 })).toEqual({ access: ["public"] });
    expect(index.semanticScope({ canRead: all })).toEqual({ access: [accessKey(["partners"]), "public"].sort() });
    expect(index.semanticScope({ canRead: all, locale: "fr" })).toEqual({ access: ["public"], locales: ["fr"] });
    expect(index.semanticScope({ canRead: () => false })).toBeUndefined();
    expect(index.vectorIds().sort()).toEqual(DOCS.map((d) => vec(d.id)).sort());
  });
});

describe("access keys", () => {
  it("are stable, order- and duplicate-free, short enough for a 64-byte string index, and differ per label set", () => {
    expect(accessKey([])).toBe("public");
    expect(accessKey(undefined)).toBe("public");
    expect(accessKey(["b", "a", "a"])).toBe(accessKey(["a", "b"]));
    expect(accessKey(["a"])).not.toBe(accessKey(["b"]));
    expect(accessKey(["a", "b"])).not.toBe(accessKey(["a"]));
    expect(accessKey(["partners"])).toMatch(/^l[0-9a-f]{26}$/);
    const keys = new Set(Array.from({ length: 2000 }, (_v, i) => accessKey([`label-${i}`])));
    expect(keys.size).toBe(2000);
  });
});
