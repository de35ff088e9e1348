/**
 * The light index reader (index-bytes.ts, issue 12) must answer exactly as the JSON.parse load did: same results,
 * scores, snippets, totals, facets, suggestions, semantic scopes, on a real definition (Slack's Web API from the
 * shared corpus) mixed with guides in two locales, private labels, policy paths and vectors.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../test/harness/corpus-files";
import { buildReference } from "../openapi/build";
import { operationDocument } from "./documents";
import { INDEX_FORMAT, PREVIOUS_INDEX_FORMAT, type IndexData } from "./format";
import { readIndexBytes } from "./index-bytes";
import { buildSearchIndex, loadSearchIndex, SearchIndexBuilder, SearchIndexFormatError, type SearchDocument, type SearchOptions } from "./index";

function fixture(): SearchDocument[] {
  const body = new Uint8Array(readFileSync(`${CORPUS_DIR}/slack/web-api/slack_web_openapi_v2.json`));
  const outcome = buildReference({ body });
  if (!outcome.ok) throw new Error("the Slack definition did not build");
  const src = { api: "slack", version: "1", layout: "page-per-operation", locale: "en" };
  const ops = outcome.operations.map((op, i) => ({ ...operationDocument(outcome.slice(op.slug), src), ...(i % 7 === 0 ? { labels: ["partners"] } : { policyPath: "/reference/slack/" }) }));
  const guides: SearchDocument[] = Array.from({ length: 40 }, (_, i) => ({
    id: `guide:${i % 2 ? "fr" : "en"}:g${i}`, kind: i % 5 === 0 ? "glossary" : "guide", title: i % 2 ? `Publier un message ${i} dans un canal` : `Post a message ${i} to a channel`,
    body: `Channels, users and messages: step ${i}. Émojis 🎉 and "quotes" \\ backslashes, a 5" [screen {, ending in one: C:\\`, url: `/guides/g${i}`, locale: i % 2 ? "fr-CA" : "en",
    labels: i % 9 === 0 ? ["staff", "partners"] : [], ...(i % 9 === 0 ? {} : { policyPath: `/guides/g${i % 4}` }),
  }));
  return [...ops, ...guides];
}

const QUERIES = ["post message", "chat.postMessage", "list users", "conversations history", "usergroups", "remove user from channel",
  "messge", "reactions ad", "files upload", "publier canal", "émojis", "oauth access token", "admin.users.remove", "team info", "zzzz"];

const OPTIONS: SearchOptions[] = [
  { canRead: () => true, limit: 100 },
  { canRead: (labels) => labels.length === 0, limit: 20 },
  { canRead: (labels, path) => labels.includes("partners") || path === "/guides/g1" || path === "/reference/slack/", limit: 5, kind: "operation,guide" },
  { canRead: () => true, locale: "fr", limit: 10 },
  { canRead: () => true, preferLocale: "fr", limit: 10 },
  { canRead: () => true, semantic: ["v:3", "v:guide:en:g2", "v:unknown", "v:7"], limit: 10 },
  { canRead: (labels) => { if (labels.length) throw new Error("denied"); return true; }, kind: "glossary" },
];

describe("light index reader", () => {
  const docs = fixture();
  const vectors = new Map(docs.filter((_, i) => i % 3).map((d, i) => [d.id, `v:${i % 11 ? d.id : String(i)}`]));
  const text = buildSearchIndex(docs, { vectors });

  it("answers every query exactly as the JSON.parse load", () => {
    const bytes = new TextEncoder().encode(text);
    const light = loadSearchIndex(bytes, { reader: "light" });
    const json = loadSearchIndex(text, { reader: "json" });
    expect(light.size).toBe(docs.length);
    expect(light.size).toBe(json.size);
    let results = 0;
    for (const q of QUERIES) {
      for (const opts of OPTIONS) {
        const a = light.search(q, opts);
        results += a.results.length;
        expect(a).toEqual(json.search(q, opts));
      }
    }
    expect(results).toBeGreaterThan(100);
    for (const opts of OPTIONS) expect(light.semanticScope(opts)).toEqual(json.semanticScope(opts));
    expect(light.vectorIds()).toEqual(json.vectorIds());
    expect(light.missingVectors()).toBe(json.missingVectors());
  });

  it("reads the builder's bytes without the JSON.parse fallback, and the same numbers JSON.parse reads", () => {
    const builder = new SearchIndexBuilder({ vectors });
    for (const d of docs) builder.add(d);
    const blocks = builder.finish();
    const bytes = new Uint8Array(blocks.reduce((n, b) => n + b.byteLength, 0));
    blocks.reduce((at, b) => (bytes.set(b, at), at + b.byteLength), 0);
    const { format, view } = readIndexBytes(bytes);
    const parsed = JSON.parse(text) as IndexData;
    expect(format).toBe(INDEX_FORMAT);
    expect(Array.from(view.headLen)).toEqual(parsed.headLen);
    expect(Array.from(view.wordTerm)).toEqual(parsed.wordTerm);
    expect(view.terms).toEqual(parsed.terms);
    parsed.postings.forEach((list, t) => expect(Array.from(view.postings(t))).toEqual(list));
    parsed.docs.forEach((d, i) => {
      expect(view.docs.get(i)).toEqual(d);
      expect(view.docs.kind(i)).toBe(d.kind);
      expect(view.docs.locale(i)).toBe(d.locale);
      expect(view.docs.groups[view.docs.group(i)].labels).toEqual(d.labels);
    });
  });

  it("reads JSON written otherwise (whitespace, key order, fractions) the same, through the fallback where needed", () => {
    const parsed = JSON.parse(text) as IndexData;
    const json = loadSearchIndex(text, { reader: "json" });
    const spaced = JSON.stringify(parsed, null, 2);
    const reordered = JSON.stringify({ postings: parsed.postings, related: parsed.related, vectors: parsed.vectors, words: parsed.words, docs: parsed.docs, wordTerm: parsed.wordTerm, terms: parsed.terms, headLen: parsed.headLen, format: parsed.format });
    // A fractional value is valid JSON the light reader leaves to JSON.parse.
    const fractional = text.replace(`"headLen":[${parsed.headLen[0]}`, `"headLen":[${parsed.headLen[0]}.0`);
    expect(fractional).not.toBe(text);
    expect(() => readIndexBytes(new TextEncoder().encode(fractional))).toThrow();
    for (const variant of [spaced, reordered]) expect(() => readIndexBytes(new TextEncoder().encode(variant))).not.toThrow();
    for (const variant of [spaced, reordered, fractional]) {
      const index = loadSearchIndex(new TextEncoder().encode(variant), { reader: "light" });
      for (const q of QUERIES.slice(0, 5)) expect(index.search(q, OPTIONS[1])).toEqual(json.search(q, OPTIONS[1]));
    }
  });

  it("still reads a format 2 index (no title bit, stored before format 3), a head match counting as a title match", () => {
    // Documents without a section: their head is their title, so format 2 and format 3 must rank them alike.
    const plain = docs.filter((d) => d.kind !== "operation" && d.section === undefined);
    expect(plain.length).toBeGreaterThan(10);
    const current = buildSearchIndex(plain);
    const parsed = JSON.parse(current) as IndexData;
    expect(parsed.format).toBe(INDEX_FORMAT);
    const previous = JSON.stringify({
      ...parsed, format: PREVIOUS_INDEX_FORMAT,
      postings: parsed.postings.map((list) => list.map((v, i) => (i % 2 ? (v >> 2) * 2 + (v & 1) : v))),
    });
    const expected = loadSearchIndex(current, { reader: "json" });
    for (const reader of ["json", "light"] as const) {
      const index = loadSearchIndex(new TextEncoder().encode(previous), { reader });
      for (const q of ["post message", "publier canal", "channels users"]) expect(index.search(q, OPTIONS[0])).toEqual(expected.search(q, OPTIONS[0]));
    }
  });

  it("refuses damaged or foreign bytes with SearchIndexFormatError", () => {
    const bytes = new TextEncoder().encode(text);
    for (const cut of [1, 100, bytes.length >> 1, bytes.length - 1]) expect(() => loadSearchIndex(bytes.subarray(0, cut), { reader: "light" })).toThrow(SearchIndexFormatError);
    expect(() => loadSearchIndex(new TextEncoder().encode(`${text}x`), { reader: "light" })).toThrow(SearchIndexFormatError);
    expect(() => loadSearchIndex(new TextEncoder().encode(text.replace(INDEX_FORMAT, "portico-search/1")), { reader: "light" })).toThrow(/format/);
    expect(() => loadSearchIndex(new Uint8Array([0xff, 0xfe, 0x7b]), { reader: "light" })).toThrow(SearchIndexFormatError);
    expect(() => loadSearchIndex(new TextEncoder().encode("[]"), { reader: "light" })).toThrow(SearchIndexFormatError);
    expect(() => loadSearchIndex(text.replace(`"docs":[`, `"docs":[null,`), { reader: "light" })).toThrow(SearchIndexFormatError);
  });
});
