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

let general: Map<string, Map<string, number>> | undefined;
const curatedPairs = new Set<string>();

/** Thesaurus and API words merged, by stem; parsed on first use (a few ms), then shared by every index. */
function generalTable(): Map<string, Map<string, number>> {
  if (general) return general;
  const table = new Map<string, Map<string, number>>();
  const put = (k: string, v: string, w: number) => {
    if (k === v) return;
    let m = table.get(k);
    if (!m) table.set(k, (m = new Map()));
    if ((m.get(v) ?? 0) < w) m.set(v, w);
  };
  for (const line of (THESAURUS as { entries: string }).entries.split("\n")) {
    const [key, ...values] = line.split(" ");
    values.forEach((v, i) => put(key, v, i < 3 ? THESAURUS_WEIGHT : THESAURUS_LATER_WEIGHT));
  }
  for (const [word, related] of apiWordTable()) {
    for (const [other, w] of related) {
      put(stem(word), stem(other), w);
      curatedPairs.add(`${stem(word)} ${stem(other)}`);
    }
  }
  return (general = table);
}

/**
 * Synonym terms for a query word whose stem is `stemmed`: general ones plus `mined` (this index's relations,
 * `term → [termIndex, weight%, ...]`, with `terms` to name them). The caller keeps only terms in its index.
 */
export function synonymsOf(stemmed: string, mined: Record<string, number[]>, terms: readonly string[]): Synonym[] {
  const best = new Map<string, number>();
  const curated = new Set<string>();
  for (const [term, w] of generalTable().get(stemmed) ?? []) {
    best.set(term, w);
    if (curatedPairs.has(`${stemmed} ${term}`)) curated.add(term);
  }
  const own = Object.hasOwn(mined, stemmed) ? mined[stemmed] : [];
  for (let i = 0; i + 1 < own.length; i += 2) {
    const term = terms[own[i]];
    const w = own[i + 1] / 100;
    if (term === undefined) continue;
    curated.add(term);
    if ((best.get(term) ?? 0) < w) best.set(term, w);
  }
  return [...best].map(([term, weight]) => ({ term, weight, curated: curated.has(term) }));
}
