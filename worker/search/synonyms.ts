/**
 * @module Synonyms of a query word, from three sources, best weight wins: relations mined from this portal's
 * content (stored in the index), the hand-written API vocabulary (api-words.ts), and the general thesaurus
 * generated from WordNet (thesaurus.json, see scripts/search/build-thesaurus.mjs). Keys and values are stems.
 */
import { stem } from "./analyze";
import { apiWordTable } from "./api-words";
import THESAURUS from "./thesaurus.json";

/** A term a query word may stand for, with the weight of a match through it. */
export interface Synonym {
  term: string;
  weight: number;
  /** From the hand-written API vocabulary or mined from the portal, rather than the general thesaurus. */
  curated: boolean;
}

/** WordNet synonyms weigh less than curated or mined ones: senses are ambiguous. */
const THESAURUS_WEIGHT = 0.55;
const THESAURUS_LATER_WEIGHT = 0.45;
/** One step up or down WordNet's noun hierarchy (after `~` in a thesaurus line): a kind of, not the same thing. */
const THESAURUS_BROADER_WEIGHT = 0.4;

let curated: Map<string, Map<string, number>> | undefined;
let lineStarts: number[] | undefined;

/** The hand-written API vocabulary, by stem (small: built on first use). */
function curatedTable(): Map<string, Map<string, number>> {
  if (curated) return curated;
  const table = new Map<string, Map<string, number>>();
  for (const [word, related] of apiWordTable()) {
    // Phrases are keyed by their words' stems joined by "_", as the query side builds them.
    const key = word.split("_").map(stem).join("_");
    let m = table.get(key);
    if (!m) table.set(key, (m = new Map()));
    for (const [other, w] of related) if (stem(other) !== key && (m.get(stem(other)) ?? 0) < w) m.set(stem(other), w);
  }
  return (curated = table);
}

/**
 * The thesaurus line for `key`, by binary search over the sorted entries: no Map of 12k keys is built, so an
 * isolate's first query does not pay for parsing the whole thesaurus.
 */
function thesaurusValues(key: string): string[] {
  const text = (THESAURUS as { entries: string }).entries;
  if (!lineStarts) {
    lineStarts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  }
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = lineStarts[mid];
    const space = text.indexOf(" ", start);
    const k = text.slice(start, space);
    if (k === key) {
      const end = mid + 1 < lineStarts.length ? lineStarts[mid + 1] - 1 : text.length;
      return text.slice(space + 1, end).split(" ");
    }
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return [];
}

/**
 * Whether `stemmed` is a word of the general thesaurus or the API vocabulary: a real word, so when the portal does
 * not use it the reader most likely chose another word for the thing, not mistyped one the portal uses.
 */
export function isDictionaryWord(stemmed: string): boolean {
  return curatedTable().has(stemmed) || thesaurusValues(stemmed).length > 0;
}

/**
 * Synonym terms for a query word whose stem is `stemmed`: general ones plus `mined` (this index's relations,
 * `term → [termIndex, weight%, ...]`, with `terms` to name them). The caller keeps only terms in its index.
 */
export function synonymsOf(stemmed: string, mined: Record<string, number[]>, terms: readonly string[]): Synonym[] {
  const best = new Map<string, number>();
  const isCurated = new Set<string>();
  const api = curatedTable().get(stemmed);
  const values = thesaurusValues(stemmed);
  const split = values.indexOf("~");
  // A word the API vocabulary knows (an API verb such as "abort", an abbreviation) is not read as a noun of
  // WordNet's hierarchy ("abort" → conclusion): its broader and narrower terms are skipped.
  const end = split >= 0 && api ? split : values.length;
  for (let i = 0; i < end; i++) {
    if (i !== split) best.set(values[i], split >= 0 && i > split ? THESAURUS_BROADER_WEIGHT : i < 3 ? THESAURUS_WEIGHT : THESAURUS_LATER_WEIGHT);
  }
  for (const [term, w] of api ?? []) {
    isCurated.add(term);
    if ((best.get(term) ?? 0) < w) best.set(term, w);
  }
  const own = Object.hasOwn(mined, stemmed) ? mined[stemmed] : [];
  for (let i = 0; i + 1 < own.length; i += 2) {
    const term = terms[own[i]];
    const w = own[i + 1] / 100;
    if (term === undefined) continue;
    isCurated.add(term);
    if ((best.get(term) ?? 0) < w) best.set(term, w);
  }
  return [...best].map(([term, weight]) => ({ term, weight, curated: isCurated.has(term) }));
}
