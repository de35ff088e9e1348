/**
 * @module Synonym lookup for a query word (placeholder: mined relations only until the thesaurus lands).
 */
import { findSorted } from "./format";

/** A term a query word may stand for, with the weight of a match through it. */
export interface Synonym {
  term: string;
  word: string;
  weight: number;
}

/** Synonyms of `word` (folded) whose stem is `stemmed`, restricted to terms of this index. */
export function synonymsOf(word: string, stemmed: string, related: Record<string, number[]>, terms: readonly string[]): Synonym[] {
  const out: Synonym[] = [];
  const mined = Object.hasOwn(related, stemmed) ? related[stemmed] : [];
  for (let i = 0; i + 1 < mined.length; i += 2) {
    const term = terms[mined[i]];
    if (term !== undefined && findSorted(terms, term) >= 0) out.push({ term, word: term, weight: mined[i + 1] / 100 });
  }
  void word;
  return out;
}
