import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "./index";

// A small vocabulary (with near-misses and shared prefixes) so random queries hit typos, completions and
// synonyms (and a closed compound, gadget + widget); labels decide who may read what.
const WORDS = ["widget", "widgets", "gadget", "gadgetwidget", "delete", "remove", "create", "list", "zorblax", "zorblaq", "repository", "repo", "webhook", "web", "hook", "wid", "gad"];
const LABELS = [[], [], ["staff"], ["beta"], ["staff", "beta"]];

const docArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
  body: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
  labels: fc.constantFrom(...LABELS),
  operationId: fc.option(fc.tuple(fc.constantFrom("Delete", "Create", "Zap"), fc.constantFrom("Widget", "Gadget")), { nil: undefined }),
});
const queryArb = fc.tuple(fc.array(fc.constantFrom(...WORDS, "widgt", "zorbla", "deleet", "repos", "gadg"), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([w, space]) => w.join(" ") + (space ? " " : ""));

function docs(specs: Array<{ title: string[]; body: string[]; labels: string[]; operationId?: [string, string] }>): SearchDocument[] {
  return specs.map((s, i) => ({
    id: `d${i}`, kind: "operation", title: s.title.join(" "), body: s.body.join(" "), url: `/d${i}`, locale: "en", labels: s.labels,
    fields: s.operationId ? { operationId: s.operationId.join("") } : undefined,
  }));
}

describe("a reader's answer depends only on the documents they may open", () => {
  it("equals the answer of an index holding only those documents (results, scores, total, facets, suggestions)", () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 12 }), queryArb, fc.constantFrom("public", "staff"), (specs, q, who) => {
        const all = docs(specs);
        const canRead = (labels: string[]) => labels.length === 0 || (who === "staff" && labels.every((l) => l === "staff"));
        const visible = all.filter((d) => canRead(d.labels));
        // Mining learns only from public documents in both indexes; their statistics (field lengths) differ, so
        // compare the set of results, their total, facets and suggestions, not the exact scores.
        const full = loadSearchIndex(buildSearchIndex(all)).search(q, { canRead, limit: 100 });
        const own = loadSearchIndex(buildSearchIndex(visible)).search(q, { canRead: () => true, limit: 100 });
        const ids = (r: typeof full) => r.results.map((h) => h.doc.id).sort();
        expect(ids(full)).toEqual(ids(own));
        expect(full.total).toBe(own.total);
        expect(full.facets).toEqual(own.facets);
        expect(full.suggestions).toEqual(own.suggestions);
      }),
      { seed: 31, numRuns: 400 },
    );
  });
});

describe("synonyms mined from the content obey the same rule", () => {
  const doc = (id: string, title: string, body: string, labels: string[]): SearchDocument => ({ id, kind: "guide", title, body, url: `/${id}`, locale: "en", labels });
  const search = (aliasLabels: string[], q: string) => {
    const docs = [
      // Made-up names: no thesaurus relates them.
      doc("zorblax", "Zorblax overview", "What a zorblax does.", []),
      doc("quibbit", "Quibbit catalogue", "Every quibbit we sell.", []),
      doc("alias", "Renames", "The zorblax (formerly known as quibbit) is being renamed.", aliasLabels),
    ];
    return loadSearchIndex(buildSearchIndex(docs)).search(q, { canRead: (labels) => labels.length === 0, limit: 10 }).results.map((h) => h.doc.id);
  };

  it("an alias a private document gives never expands a query", () => {
    // Public: the alias relates quibbit to zorblax, so "quibbit" also finds the zorblax page (the test can fail).
    expect(search([], "quibbit")).toContain("zorblax");
    // Private: the same alias reaches no reader, not even through the public documents it would relate.
    expect(search(["staff"], "quibbit")).toEqual(["quibbit"]);
  });
});

describe("semantic matches obey the same rule", () => {
  it("fusing vector ids of any documents, private ones included, answers what the reader's own index would", () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 12 }), queryArb, fc.constantFrom("public", "staff"), fc.array(fc.nat(20), { maxLength: 8 }), (specs, q, who, picks) => {
        const all = docs(specs);
        const canRead = (labels: string[]) => labels.length === 0 || (who === "staff" && labels.every((l) => l === "staff"));
        const visible = all.filter((d) => canRead(d.labels));
        const vectors = (list: SearchDocument[]) => ({ vectors: new Map(list.map((d) => [d.id, `v-${d.id}`])) });
        // Ids of any document (readable or not), and of none (a vector the index does not list).
        const semantic = picks.map((i) => `v-d${i}`);
        const full = loadSearchIndex(buildSearchIndex(all, vectors(all))).search(q, { canRead, limit: 100, semantic });
        const own = loadSearchIndex(buildSearchIndex(visible, vectors(visible))).search(q, { canRead: () => true, limit: 100, semantic });
        const ids = (r: typeof full) => r.results.map((h) => h.doc.id).sort();
        expect(ids(full)).toEqual(ids(own));
        expect(full.total).toBe(own.total);
        expect(full.facets).toEqual(own.facets);
        expect(full.results.every((h) => canRead(h.doc.labels))).toBe(true);
      }),
      { seed: 37, numRuns: 300 },
    );
  });

  it("one loaded index serving readers in turn answers each as a fresh index does (its per-reader arrays are kept apart)", () => {
    const readers = [(l: string[]) => l.length === 0, (l: string[]) => l.every((x) => x === "staff"), () => true, (l: string[]) => l.includes("beta")];
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 12 }), queryArb, fc.array(fc.nat(readers.length - 1), { minLength: 2, maxLength: 10 }), fc.constantFrom(undefined, "en", "fr"), (specs, q, turns, locale) => {
        const all = docs(specs);
        const built = buildSearchIndex(all);
        const shared = loadSearchIndex(built);
        for (const r of turns) {
          const opts = { canRead: readers[r], limit: 100, ...(locale ? { locale } : {}) };
          const a = shared.search(q, opts);
          const b = loadSearchIndex(built).search(q, opts);
          expect(a.results.map((h) => [h.doc.id, h.score])).toEqual(b.results.map((h) => [h.doc.id, h.score]));
          expect(a.total).toBe(b.total);
          expect(a.suggestions).toEqual(b.suggestions);
        }
      }),
      { seed: 3737, numRuns: 200 },
    );
  });
});
