import { describe, expect, it } from "vitest";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "./index";

const doc = (id: string, title: string): SearchDocument => ({ id, kind: "operation", title, body: "", url: `/x/${id}`, locale: "en", labels: [] });
// Titles where the typed letters are the stem of some words ("watched", "watching") and the start of another ("watchlist").
const DOCS = [
  doc("watched", "Get watched"), doc("history", "Get watched history"), doc("progress", "Get show watched progress"),
  doc("watching", "Get watching"), doc("movies", "Get watched movies"), doc("watchlist", "Get watchlist"),
];
const engine = loadSearchIndex(buildSearchIndex(DOCS));
const rank = (q: string, id: string) => engine.search(q, { canRead: () => true }).results.findIndex((r) => r.doc.id === id) + 1;

describe("the word being typed", () => {
  it("counts a longer word it starts as much as the inflections of its letters", () => {
    // Ties with the equally short "Get watched" and "Get watching", ahead of the longer titles.
    expect(rank("get watch", "watchlist")).toBeLessThanOrEqual(3);
    expect(rank("get watch ", "watched")).toBe(1);
  });
});
