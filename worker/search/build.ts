/**
 * @module buildSearchIndex: documents → serialised index (format.ts). Field-weighted BM25 (BM25F): each field's
 * term frequency is length-normalised and weighted, summed, then saturated once per term and document; the
 * result is stored per posting so queries only add numbers. Runs at publish time, never on the read path.
 */
import { STOPWORDS, stem } from "./analyze";
import { INDEX_FORMAT, SAT_SCALE, type IndexData } from "./format";
import { mineRelated } from "./mine";
import { tokenize } from "./tokenize";
import type { SearchDocument } from "./types";

/** BM25F field weights and length-normalisation strengths (b); the head fields name the document. */
const FIELDS = [
  { name: "title", weight: 4, b: 0.6, head: true },
  { name: "section", weight: 1.5, b: 0.5, head: true },
  { name: "ident", weight: 2, b: 0.3, head: false },
  { name: "params", weight: 1, b: 0.5, head: false },
  { name: "body", weight: 1, b: 0.75, head: false },
] as const;
const K1 = 1.2;
/** Tokens read per body; long guides with code blocks say what they are about early. */
const BODY_TOKENS = 4000;

function fieldTexts(d: SearchDocument): string[] {
  const f = d.fields ?? {};
  const ident = [f.operationId, f.method, f.path, f.tag].filter(Boolean).join(" ");
  const params = [...(f.parameters ?? []), ...(f.properties ?? []), ...(f.enums ?? [])].map(String).join(" ");
  return [d.title ?? "", d.section ?? "", ident, params, d.body ?? ""];
}

/** Options of {@link buildSearchIndex}. */
export interface BuildOptions {
  /** Document id → id of its stored vector (semantic retrieval); documents without one get none. */
  vectors?: ReadonlyMap<string, string>;
}

/**
 * Builds the index for `docs` (ids must be unique; later duplicates are dropped). Returns a JSON string of
 * {@link IndexData}, immutable once written. Cost is linear in the text: ~1 s for GitHub's 1,223 operations.
 */
export function buildSearchIndex(docs: SearchDocument[], options: BuildOptions = {}): string {
  const seen = new Set<string>();
  const kept = docs.filter((d) => !seen.has(d.id) && seen.add(d.id));
  const n = kept.length;
  const surface = new Map<string, string>();
  // Words of public documents only (for mining: see `related` below).
  const publicSurface = new Map<string, string>();
  // Per field: per doc term → tf, and the field's length in tokens.
  const tf: Map<string, number>[][] = FIELDS.map(() => []);
  const len: number[][] = FIELDS.map(() => []);
  const headLen: number[] = [];
  for (let i = 0; i < n; i++) {
    const texts = fieldTexts(kept[i]);
    const isPublic = !kept[i].labels?.length;
    const titleTerms = new Set<string>();
    FIELDS.forEach((field, f) => {
      const counts = new Map<string, number>();
      const tokens = tokenize(texts[f], f === 4 ? BODY_TOKENS : Infinity);
      let length = 0;
      for (const t of tokens) {
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
    FIELDS.forEach((field, f) => {
      const norm = 1 - field.b + (field.b * len[f][i]) / avg[f];
      for (const [term, count] of tf[f][i]) {
        weighted.set(term, (weighted.get(term) ?? 0) + (field.weight * count) / norm);
        if (field.head) inHead.add(term);
      }
    });
    for (const [term, w] of weighted) {
      const sat = Math.max(1, Math.round((SAT_SCALE * w) / (K1 + w)));
      let list = postingMap.get(term);
      if (!list) postingMap.set(term, (list = []));
      list.push(i, sat * 2 + (inHead.has(term) ? 1 : 0));
    }
  }
  const terms = [...postingMap.keys()].sort();
  const termIndex = new Map(terms.map((t, i) => [t, i]));
  const postings = terms.map((t) => deltaEncode(postingMap.get(t)!));
  const words = [...surface.keys()].sort();
  const data: IndexData = {
    format: INDEX_FORMAT,
    docs: kept,
    headLen,
    terms,
    postings,
    words,
    wordTerm: words.map((w) => termIndex.get(surface.get(w)!)!),
    // Mined from public documents only: a relation learnt from a private page would change what every reader's
    // query expands to.
    related: mineRelated(kept.filter((d) => !d.labels?.length), termIndex, publicSurface),
  };
  if (options.vectors) data.vectors = kept.map((d) => options.vectors!.get(d.id) ?? "");
  return JSON.stringify(data);
}

function deltaEncode(list: number[]): number[] {
  let prev = 0;
  for (let i = 0; i < list.length; i += 2) {
    const doc = list[i];
    list[i] = doc - prev;
    prev = doc;
  }
  return list;
}
