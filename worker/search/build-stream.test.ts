/**
 * The bounded-memory build (issue 12): SearchIndexBuilder streams documents and writes UTF-8 blocks, and must write
 * exactly the bytes the whole-list build wrote (kept here as the reference: `referenceBuild` is build.ts as it was
 * before the streamed builder), so indexes, their content addresses and every ranking stay as they were.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../test/harness/corpus-files";
import { buildReference } from "../openapi/build";
import { STOPWORDS, stem } from "./analyze";
import { blocksLength, blocksText, ByteWriter, sliceBlocks } from "./bytes";
import { DocumentSetWriter, documentParts, documentsOf, eachPartDocument, partDocuments } from "./document-set";
import { operationDocument } from "./documents";
import { INDEX_FORMAT, SAT_SCALE, type IndexData } from "./format";
import { buildSearchIndex, loadSearchIndex, SearchIndexBuilder, type SearchDocument } from "./index";
import { mineRelated } from "./mine";
import { tokenize } from "./tokenize";

/**
 * build.ts before issue 12's streamed build: every document and term-frequency map held, one JSON.stringify; with
 * issue 9's sixth field (an operation's tag description, `fields.context`, searched but not stored).
 */
function referenceBuild(docs: SearchDocument[], vectors?: ReadonlyMap<string, string>): string {
  const FIELDS = [
    { weight: 4, b: 0.6, head: true },
    { weight: 1.5, b: 0.5, head: true },
    { weight: 2, b: 0.3, head: false },
    { weight: 1, b: 0.5, head: false },
    { weight: 1, b: 0.75, head: false },
    { weight: 0.3, b: 0.75, head: false },
  ];
  const fieldTexts = (d: SearchDocument) => {
    const f = d.fields ?? {};
    const ident = [f.operationId, f.method, f.path, f.tag].filter(Boolean).join(" ");
    const params = [...(f.parameters ?? []), ...(f.properties ?? []), ...(f.enums ?? [])].map(String).join(" ");
    return [d.title ?? "", d.section ?? "", ident, params, d.body ?? "", f.context ?? ""];
  };
  const seen = new Set<string>();
  const kept = docs.filter((d) => !seen.has(d.id) && seen.add(d.id));
  const n = kept.length;
  const surface = new Map<string, string>();
  const publicSurface = new Map<string, string>();
  const tf: Map<string, number>[][] = FIELDS.map(() => []);
  const len: number[][] = FIELDS.map(() => []);
  const headLen: number[] = [];
  for (let i = 0; i < n; i++) {
    const texts = fieldTexts(kept[i]);
    const isPublic = !kept[i].labels?.length;
    const titleTerms = new Set<string>();
    FIELDS.forEach((_field, f) => {
      const counts = new Map<string, number>();
      let length = 0;
      for (const t of tokenize(texts[f], f === 4 ? 4000 : Infinity)) {
        if (STOPWORDS.has(t.word)) continue;
        const term = stem(t.word);
        if (!surface.has(t.word)) surface.set(t.word, term);
        if (isPublic && !t.joined && !publicSurface.has(t.word)) publicSurface.set(t.word, term);
        counts.set(term, (counts.get(term) ?? 0) + 1);
        if (!t.joined) length++;
        if (f === 0 && !t.joined) titleTerms.add(term);
      }
      tf[f].push(counts);
      len[f].push(length);
    });
    headLen.push(titleTerms.size);
  }
  const avg = len.map((l) => Math.max(1, l.reduce((a, b) => a + b, 0) / Math.max(1, l.filter((x) => x > 0).length)));
  const postingMap = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const weighted = new Map<string, number>();
    const inHead = new Set<string>();
    const inTitle = new Set<string>();
    FIELDS.forEach((field, f) => {
      const norm = 1 - field.b + (field.b * len[f][i]) / avg[f];
      for (const [term, count] of tf[f][i]) {
        weighted.set(term, (weighted.get(term) ?? 0) + (field.weight * count) / norm);
        if (field.head) inHead.add(term);
        if (f === 0) inTitle.add(term);
      }
    });
    for (const [term, w] of weighted) {
      const sat = Math.max(1, Math.round((SAT_SCALE * w) / (1.2 + w)));
      let list = postingMap.get(term);
      if (!list) postingMap.set(term, (list = []));
      list.push(i, sat * 4 + (inTitle.has(term) ? 2 : 0) + (inHead.has(term) ? 1 : 0));
    }
  }
  const terms = [...postingMap.keys()].sort();
  const termIndex = new Map(terms.map((t, i) => [t, i]));
  const postings = terms.map((t) => {
    const list = postingMap.get(t)!;
    for (let i = 0, prev = 0; i < list.length; i += 2) [list[i], prev] = [list[i] - prev, list[i]];
    return list;
  });
  const words = [...surface.keys()].sort();
  const data: IndexData = {
    format: INDEX_FORMAT, docs: kept.map((d) => (d.fields?.context === undefined ? d : { ...d, fields: (({ context: _c, ...rest }) => rest)(d.fields) })), headLen, terms, postings, words,
    wordTerm: words.map((w) => termIndex.get(surface.get(w)!)!),
    related: mineRelated(kept.filter((d) => !d.labels?.length), termIndex, publicSurface),
  };
  if (vectors) data.vectors = kept.map((d) => vectors.get(d.id) ?? "");
  return JSON.stringify(data);
}

const doc = (id: string, title: string, body = "", extra: Partial<SearchDocument> = {}): SearchDocument => ({
  id, kind: "operation", title, body, url: `/x/${id}`, locale: "en", labels: [], ...extra,
});

/** Slack's Web API from the shared corpus (174 operations), as a publish reads its documents. */
function slackDocuments(): SearchDocument[] {
  const body = new Uint8Array(readFileSync(`${CORPUS_DIR}/slack/web-api/slack_web_openapi_v2.json`));
  const outcome = buildReference({ body });
  if (!outcome.ok) throw new Error("the Slack definition did not build");
  const src = { api: "slack", version: "1", layout: "page-per-operation", locale: "en" };
  return outcome.operations.map((op) => operationDocument(outcome.slice(op.slug), src));
}

/** Documents that cross every edge: duplicates, private labels, CJK, emoji, a lone surrogate, empty fields, long bodies. */
const EDGES: SearchDocument[] = [
  doc("a", "Delete a droplet", "Deletes a droplet.", { fields: { operationId: "droplets_destroy", method: "DELETE", path: "/v2/droplets/{id}", tag: "Droplets", parameters: ["id"], properties: ["name", "size"], enums: ["s-1vcpu-1gb"] } }),
  doc("b", "Destroy a volume", "Removes a volume.", { fields: { operationId: "volumes_remove" } }),
  doc("ctx", "Update a record", "Updates it.", { fields: { operationId: "records_update", tag: "Records", context: "Records of a DNS zone." } }),
  doc("c", "Remove a key", "Deletes a key.", { fields: { operationId: "keys_delete" } }),
  doc("a", "A later duplicate", "dropped"),
  doc("cjk", "请求 ドキュメント 문서", "emoji 🚀 and accents: Élan café naïve", { kind: "guide", section: "Über", locale: "fr-CA" }),
  doc("lone", "lone \ud800 surrogate", "and \udfff another", { kind: "glossary" }),
  doc("private", "Secret delete operation", "Purge everything.", { labels: ["staff"], fields: { operationId: "secret_purge" }, policyPath: "/reference/x/" }),
  doc("empty", "", ""),
  doc("json", 'Brackets ] } , [ { and "quotes" \\" \\', "a\\\\\"]},\n\t\u0000 end", { section: "}]", fields: { parameters: ["[", "]", "\\"] } }),
  doc("repeats", "A field repeating one word past 16-bit counts", "", { fields: { parameters: Array.from({ length: 70_000 }, () => "zeta") } }),
  doc("long", "Long body", Array.from({ length: 6000 }, (_, i) => `word${i % 97} token${i % 13}`).join(" "), { kind: "changelog" }),
];

describe("SearchIndexBuilder", () => {
  it("writes the bytes the whole-list build wrote, in blocks of any size", () => {
    const docs = [...slackDocuments(), ...EDGES];
    const reference = new TextEncoder().encode(referenceBuild(docs));
    for (const blockBytes of [undefined, 4096, 33]) {
      const builder = new SearchIndexBuilder({ blockBytes });
      for (const d of docs) builder.add(d);
      expect(builder.added).toBe(docs.length);
      expect(builder.size).toBe(docs.length - 1);
      const blocks = builder.finish();
      if (blockBytes) expect(blocks.length).toBeGreaterThan(reference.length / blockBytes);
      expect(sliceBlocks(blocks, 0, blocksLength(blocks))).toEqual(reference);
    }
    expect(buildSearchIndex(docs)).toBe(referenceBuild(docs));
  });

  it("writes the vector table and an empty index as before", () => {
    const vectors = new Map([["a", "v1"], ["cjk", "v2"]]);
    expect(buildSearchIndex(EDGES, { vectors })).toBe(referenceBuild(EDGES, vectors));
    expect(buildSearchIndex([])).toBe(referenceBuild([]));
  });

  it("answers the same from documents read back from their parts", () => {
    const docs = slackDocuments();
    const parts = documentParts(docs, 20_000);
    const index = loadSearchIndex(buildSearchIndex(documentsOf(parts)));
    const reference = loadSearchIndex(referenceBuild(docs));
    for (const q of ["post message", "archive channel", "list users", "remove reminder", "chat.update", "oauth acess"]) {
      expect(index.search(q, { canRead: () => true, limit: 20 })).toEqual(reference.search(q, { canRead: () => true, limit: 20 }));
    }
  });
});

describe("DocumentSetWriter", () => {
  it("splits documents into JSON arrays under the byte size, in order", () => {
    const docs = [...slackDocuments(), ...EDGES];
    const parts = documentParts(docs, 8_000);
    expect(parts.length).toBeGreaterThan(10);
    for (const p of parts) {
      const json = new TextDecoder().decode(p);
      // Only a document larger than a part by itself makes a larger part.
      if (p.byteLength > 8_000) expect(partDocuments(p)).toHaveLength(1);
      expect(new TextEncoder().encode(json)).toEqual(p);
    }
    expect([...documentsOf(parts)]).toEqual(JSON.parse(JSON.stringify(docs)));
    expect(parts.map(partDocuments).map((p) => JSON.stringify(p))).toEqual(parts.map((p) => new TextDecoder().decode(p)));
    for (const p of parts) expect([...eachPartDocument(p)]).toEqual(partDocuments(p));
  });

  it("reads documents one at a time from any JSON array, and refuses what is not one", () => {
    const read = (json: string) => [...eachPartDocument(new TextEncoder().encode(json))];
    expect(read(" [ ] ")).toEqual([]);
    expect(read(' [ {"id":"a","t":"x]}\\"y"} ,\n{"id":"b","n":[1,{"c":[]}]} ] ')).toEqual([{ id: "a", t: 'x]}"y' }, { id: "b", n: [1, { c: [] }] }]);
    expect(() => read('{"id":"a"}')).toThrow(TypeError);
    expect(() => read('[{"id":"a"}')).toThrow(TypeError);
    expect(() => read('[{"id":"a"},}]')).toThrow(SyntaxError);
  });

  it("writes one empty array for no documents, and refuses a part that is not an array", () => {
    const writer = new DocumentSetWriter();
    expect(writer.finish().map((p) => new TextDecoder().decode(p))).toEqual(["[]"]);
    expect(() => partDocuments(new TextEncoder().encode('{"id":"x"}'))).toThrow(TypeError);
  });
});

describe("ByteWriter", () => {
  it("keeps characters whole across blocks and writes integers as JSON does", () => {
    const writer = new ByteWriter(32);
    const text = "ab€🚀".repeat(40) + "\ud800x";
    writer.write(text);
    writer.writeIntArray([0, 7, -3, 123456789, 9007199254740991]);
    const blocks = writer.finish();
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocksText(blocks)).toBe(`${text.replace("\ud800", "\ufffd")}[0,7,-3,123456789,9007199254740991]`);
    expect(blocksLength(blocks)).toBe(new TextEncoder().encode(blocksText(blocks)).length);
  });
});
