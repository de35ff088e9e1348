/**
 * @module Typo candidates over the index's own vocabulary, by symmetric deletion (SymSpell's idea): every
 * vocabulary word is filed under the strings one deletion away from it, built lazily on the first typo; a query
 * word looks up itself and its own deletions, and each candidate is verified by Damerau (OSA) distance. The
 * vocabulary is scanned only for a long word the lookups find nothing for (the words sharing its first letter, at
 * most MAX_SCAN of them). Coverage: every single edit; for two edits (words of 8+ letters) the query side
 * also tries two deletions, which covers two edits when at most one of them needs a deletion on the vocabulary
 * side (a swap or substitution plus an extra letter, or two extra letters), not two substitutions.
 */

import { findSorted, lowerBound } from "./format";
import { isWholeIdentifier } from "./tokenize";

/** Longest word considered for typos; longer input is not a typo'd word but noise. */
const MAX_WORD = 32;
/** Vocabulary words a long word's fallback scan compares at most (one first letter of a large portal). */
const MAX_SCAN = 20_000;
/** Deletion keys whose answers over several parts are kept per finder (a typo'd query asks ~10-60 keys). */
const FILED_CACHE_KEYS = 8192;
/** Longest whole identifier corrected (tokenize.ts keeps at most 8 parts). */
const MAX_IDENTIFIER = 96;

/** The strings obtained from `w` by deleting one character (distinct). */
export function deletions(w: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < w.length; i++) out.add(w.slice(0, i) + w.slice(i + 1));
  return [...out];
}

/** Optimal-string-alignment distance (adjacent swaps count 1), or `max + 1` as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

/** Edits allowed for a word of this length: none below 3 letters, one up to 7, two from 8. */
export function maxEdits(word: string): number {
  return word.length < 3 ? 0 : word.length < 8 ? 1 : 2;
}

/** Finds vocabulary words within a bounded edit distance of a query word. */
/**
 * Deletion maps by the sorted word list they file (a loaded index's or search shard's `words`, immutable): built once
 * per list and isolate, kept as long as the list is (issue 37: after a publish only the new shard's map is built,
 * not one over the whole portal's vocabulary).
 */
const DELETION_MAPS = new WeakMap<readonly string[], Map<string, number[]>>();

/** `words`' deletion map: each word (2-32 characters, with a letter, not a whole identifier) and its deletions → indexes. */
function deletionMap(words: readonly string[]): Map<string, number[]> {
  const cached = DELETION_MAPS.get(words);
  if (cached) return cached;
  const map = new Map<string, number[]>();
  const add = (key: string, i: number) => {
    const list = map.get(key);
    if (list) list.push(i);
    else map.set(key, [i]);
  };
  words.forEach((w, i) => {
    if (w.length < 2 || w.length > MAX_WORD || isWholeIdentifier(w) || !/\p{L}/u.test(w)) return;
    add(w, i);
    for (const d of deletions(w)) add(d, i);
  });
  DELETION_MAPS.set(words, map);
  return map;
}

export class TypoFinder {
  /**
   * `words`: the vocabulary (sorted, distinct) whose indexes are answered. `parts`: sorted word lists whose union is
   * `words` (search shards, shards.ts), each filed in a deletion map of its own, so merging shards builds no map over
   * the whole vocabulary; by default `words` itself. Answers are the same either way.
   */
  constructor(
    private readonly words: readonly string[],
    private readonly parts: readonly (readonly string[])[] = [words],
  ) {}

  /** Keys looked up across parts, with their answers (bounded): a query's probes ask every part once. */
  private readonly filedCache = new Map<string, number[]>();

  /** Indexes into `words` of the words filed under `key`, ascending and distinct (as one map over `words` files them). */
  private filed(key: string): number[] {
    if (this.parts.length === 1 && this.parts[0] === this.words) return deletionMap(this.words).get(key) ?? [];
    const hit = this.filedCache.get(key);
    if (hit) return hit;
    const out = this.filedAcross(key);
    if (this.filedCache.size >= FILED_CACHE_KEYS) this.filedCache.delete(this.filedCache.keys().next().value as string);
    this.filedCache.set(key, out);
    return out;
  }

  private filedAcross(key: string): number[] {
    const out: number[] = [];
    for (const part of this.parts) {
      for (const i of deletionMap(part).get(key) ?? []) {
        const g = findSorted(this.words, part[i]);
        if (g >= 0) out.push(g);
      }
    }
    if (out.length < 2) return out;
    out.sort((a, b) => a - b);
    return out.filter((g, k) => k === 0 || out[k - 1] !== g);
  }

  /**
   * Vocabulary indexes within `max` edits of `word` (excluding an exact match), with their distances. A
   * two-letter word gets the three-letter words it is one dropped letter of (`gt` → get), as typing drops a
   * letter of short words too. A word of 8+ letters that the deletion map finds nothing for (two swaps or
   * substitutions: `paaremters`) is compared with the vocabulary words sharing its first letter and within
   * two letters of its length.
   */
  find(word: string, max = maxEdits(word)): Array<{ word: number; distance: number }> {
    if (word.length > MAX_WORD || !/\p{L}/u.test(word)) return [];
    if (word.length === 2 && /^\p{L}+$/u.test(word)) {
      return this.filed(word).filter((i) => this.words[i].length === 3).map((i) => ({ word: i, distance: 1 }));
    }
    if (max === 0) return [];
    const probes = new Set<string>([word, ...deletions(word)]);
    if (max >= 2) for (const d of deletions(word)) for (const dd of deletions(d)) probes.add(dd);
    const seen = new Set<number>();
    const out: Array<{ word: number; distance: number }> = [];
    for (const p of probes) {
      for (const i of this.filed(p)) {
        if (seen.has(i)) continue;
        seen.add(i);
        const w = this.words[i];
        if (w === word) continue;
        const distance = editDistance(word, w, max);
        if (distance <= max) out.push({ word: i, distance });
      }
    }
    if (max >= 2 && !out.length) return this.scan(word, max);
    return out;
  }

  /**
   * Whole identifiers (tokenize.ts: parts joined by `_`) within `max` edits of `whole`, by the bounded scan: they are
   * kept out of the deletion map, so a word's typo is never read as an identifier, and there are few per first letter.
   */
  identifier(whole: string, max = maxEdits(whole)): Array<{ word: number; distance: number }> {
    return max > 0 && whole.length <= MAX_IDENTIFIER ? this.scan(whole, max, true) : [];
  }

  /** Words sharing `word`'s first letter, at most 2 letters longer or shorter, within `max` edits (bounded scan). */
  private scan(word: string, max: number, identifiers = false): Array<{ word: number; distance: number }> {
    const out: Array<{ word: number; distance: number }> = [];
    const first = word[0];
    for (let i = lowerBound(this.words, first), n = 0; i < this.words.length && this.words[i][0] === first && n < MAX_SCAN; i++, n++) {
      const w = this.words[i];
      if (Math.abs(w.length - word.length) > max || isWholeIdentifier(w) !== identifiers || !/\p{L}/u.test(w)) continue;
      const distance = editDistance(word, w, max);
      if (distance <= max && w !== word) out.push({ word: i, distance });
    }
    return out;
  }
}
