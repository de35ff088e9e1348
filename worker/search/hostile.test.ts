import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "./index";

const docs: SearchDocument[] = [
  { id: "a", kind: "operation", title: "Create a (new) [widget]*", body: "Uses $ref and ^anchors$ with a|b and \\d+ ✓ 検索 café.", url: "/a", locale: "en", labels: [] },
  { id: "b", kind: "guide", title: "Émoji 🎉 guide", body: "RTL ‏שלום‏ and zero\u200bwidth and \u0000 nul.", url: "/b", locale: "he", labels: ["x"] },
];
const index = loadSearchIndex(buildSearchIndex(docs));
const ask = (q: string) => index.search(q, { canRead: () => true });

describe("hostile queries never throw", () => {
  it("answers empty, blank and stopword-only queries with nothing", () => {
    expect(ask("")).toEqual({ total: 0, results: [] });
    expect(ask("   \n\t ")).toEqual({ total: 0, results: [] });
    expect(ask("???!!!")).toEqual({ total: 0, results: [] });
  });

  it("treats regex metacharacters as text", () => {
    for (const q of ["(", "[widget]*", ".*", "a|b", "\\d+", "$ref", "^anchors$", "(?<x>)", "\\", "[[[[", "*+?"]) expect(() => ask(q)).not.toThrow();
    expect(ask("[widget]*").results[0].doc.id).toBe("a");
    expect(ask("$ref").results[0].doc.id).toBe("a");
  });

  it("handles 10 KB queries quickly by reading only their head", () => {
    const r = ask("widget ".repeat(1500));
    expect(r.results[0].doc.id).toBe("a");
    expect(() => ask("x".repeat(10_240))).not.toThrow();
    expect(() => ask("ab".repeat(5_120))).not.toThrow();
  });

  it("handles unicode: emoji, CJK, RTL, combining marks, lone surrogates, NUL", () => {
    for (const q of ["🎉", "検索", "שלום", "cafe\u0301", "\ud800", "\udfff x", "\u0000", "zero\u200bwidth"]) expect(() => ask(q)).not.toThrow();
    expect(ask("café").results[0].doc.id).toBe("a");
    expect(ask("emoji").results[0].doc.id).toBe("b");
  });

  it("answers a JS caller that passes no options or odd ones with nothing readable, not an exception", () => {
    const loose = index as unknown as { search(q: unknown, o?: unknown): { total: number } };
    expect(loose.search("widget").total).toBe(0);
    expect(loose.search(42, { canRead: () => true }).total).toBe(0);
    expect(loose.search("widget", { canRead: () => true, kind: 7, locale: 3, limit: "x" }).total).toBe(0);
    expect(loose.search("widget", { canRead: "yes" }).total).toBe(0);
  });

  it("never throws on any string, with any options", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.integer({ min: -5, max: 500 }), fc.option(fc.string()), (q, limit, kind) => {
        const r = index.search(q, { canRead: (l) => l.length === 0, limit, kind: kind ?? undefined });
        expect(r.total).toBeGreaterThanOrEqual(r.results.length);
        expect(r.results.every((h) => h.doc.labels.length === 0)).toBe(true);
      }),
      { seed: 9, numRuns: 300 },
    );
  });
});
