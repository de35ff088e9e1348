import { describe, expect, it } from "vitest";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "../search/index";
import { centred, meanOf, nearest } from "./vector-table";
import { WORD_VECTOR_TUNING, wordVectorModel, type WordVectorTable } from "./word-vectors";

/** A table in the build script's shape: int8 rows, base64, stems in rank order. */
function table(rows: Array<[stem: string, rank: number, vector: number[]]>): WordVectorTable {
  const bytes = new Int8Array(rows.flatMap(([, , v]) => v));
  return {
    dimensions: rows[0][2].length,
    stems: rows.map(([s]) => s).join(" "),
    ranks: rows.map(([, r]) => r).join(" "),
    vectors: btoa(String.fromCharCode(...new Uint8Array(bytes.buffer))),
  };
}
const TABLE = table([
  ["the", 1, [127, 0, 0]],
  ["how", 80, [100, 20, 0]],
  ["refund", 9000, [0, 127, 10]],
  ["monei", 3000, [0, 100, -20]],
  ["shipment", 12000, [0, -10, 127]],
]);
const model = wordVectorModel(TABLE);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("the word-vector model (SIF over stems)", () => {
  it("decodes negative int8 values, looks words up by the engine's stem and answers unit vectors", () => {
    const v = model.embed("Refunds");
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect(v[1]).toBeGreaterThan(0.99);
    expect(v[2]).toBeGreaterThan(0); // 10 of 127: small but kept
    expect(model.embed("money")[2]).toBeLessThan(0); // -20: the sign survives base64 and int8
    expect(model.knows("refunded")).toBe(true);
    expect(model.knows("webhook")).toBe(false);
  });
  it("all zeros when no word is known; identifiers are split into words", () => {
    expect([...model.embed("zzz qqq 123")]).toEqual([0, 0, 0]);
    expect(dot(model.embed("refundShipment"), model.embed("refund shipment"))).toBeCloseTo(1, 5);
  });
  it("frequent words weigh almost nothing (SIF): chatter does not move a question's vector", () => {
    const bare = model.embed("refund");
    expect(dot(model.embed("how the the refund"), bare)).toBeGreaterThan(0.99);
    // With a far larger a, every word weighs about the same and the chatter pulls the vector away.
    const saved = WORD_VECTOR_TUNING.sifA;
    try {
      WORD_VECTOR_TUNING.sifA = 1;
      expect(dot(model.embed("how the the refund"), bare)).toBeLessThan(0.8);
    } finally {
      WORD_VECTOR_TUNING.sifA = saved;
    }
  });
  it("reads only the text's opening", () => {
    const far = "x ".repeat(WORD_VECTOR_TUNING.chars) + "refund";
    expect([...model.embed(far)]).toEqual([0, 0, 0]);
  });
  it("refuses a malformed table", () => {
    expect(() => wordVectorModel({ ...TABLE, ranks: "1 2" })).toThrow(/malformed/);
    expect(() => wordVectorModel({ ...TABLE, vectors: btoa("abc") })).toThrow(/malformed/);
  });
});

describe("the exact nearest-neighbour table", () => {
  const rows = [
    { id: "a", metadata: { access: "public", locale: "en" }, vector: Float32Array.from([1, 0, 0]) },
    { id: "b", metadata: { access: "lx", locale: "en" }, vector: Float32Array.from([0.8, 0.6, 0]) },
    { id: "c", metadata: { access: "public", locale: "fr" }, vector: Float32Array.from([0, 1, 0]) },
  ];
  it("ranks by cosine, best first, within topK and the least score", () => {
    const q = Float32Array.from([1, 0, 0]);
    expect(nearest(rows, q, 10).map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(nearest(rows, q, 2).map((m) => m.id)).toEqual(["a", "b"]);
    expect(nearest(rows, q, 10, undefined, 0.5).map((m) => m.id)).toEqual(["a", "b"]);
  });
  it("filters as Vectorize does: $in per field and equality, all fields together", () => {
    const q = Float32Array.from([1, 0, 0]);
    expect(nearest(rows, q, 10, { access: { $in: ["public"] } }).map((m) => m.id)).toEqual(["a", "c"]);
    expect(nearest(rows, q, 10, { access: { $in: ["public", "lx"] }, locale: "en" }).map((m) => m.id)).toEqual(["a", "b"]);
    expect(nearest(rows, q, 10, { access: { $in: [] } })).toEqual([]);
  });
  it("centring removes the shared direction and keeps unit length", () => {
    const mean = meanOf(rows.map((r) => r.vector), 3);
    expect([...mean].map((x) => +x.toFixed(4))).toEqual([0.6, 0.5333, 0]);
    const c = centred(rows[0].vector, mean);
    expect(Math.hypot(...c)).toBeCloseTo(1, 5);
    expect([...centred(mean, mean)]).toEqual([0, 0, 0]);
  });
});

describe("the engine maps semantic ids to readable documents (semanticDocuments)", () => {
  const doc = (id: string, labels: string[] = [], locale = "en"): SearchDocument => ({ id, kind: "guide", title: `Title ${id}`, body: "Body.", url: `/g/${id}`, locale, labels });
  const docs = [doc("one"), doc("two", ["partners"]), doc("three", [], "fr"), doc("four")];
  const index = loadSearchIndex(buildSearchIndex(docs, { vectors: new Map(docs.map((d) => [d.id, `v-${d.id}`])) }));
  it("keeps the ids' order, drops unknown ids and what the reader may not open, and honours the limit", () => {
    const ids = ["v-four", "v-gone", "v-two", "v-one", "v-three"];
    expect(index.semanticDocuments(ids, { canRead: () => true }).map((d) => d.id)).toEqual(["four", "two", "one", "three"]);
    expect(index.semanticDocuments(ids, { canRead: (l) => l.length === 0 }).map((d) => d.id)).toEqual(["four", "one", "three"]);
    expect(index.semanticDocuments(ids, { canRead: () => true, locale: "fr" }).map((d) => d.id)).toEqual(["three"]);
    expect(index.semanticDocuments(ids, { canRead: () => true, limit: 2 }).map((d) => d.id)).toEqual(["four", "two"]);
  });
  it("an index built without vectors maps nothing", () => {
    const plain = loadSearchIndex(buildSearchIndex(docs));
    expect(plain.semanticDocuments(["v-one"], { canRead: () => true })).toEqual([]);
  });
});
