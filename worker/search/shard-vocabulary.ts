/**
 * @module The vocabulary of merged search shards (issue 37): the sorted, distinct union of the shards' terms and
 * words, each entry counting the shards that have it, so that the next merge (a publish replaced one shard) is
 * derived from this one by a linear merge with the new shard's sorted lists and a lookup of the leaving shard's
 * entries: no hashing or sorting of the whole portal's vocabulary on the first query after a publish. Arrays are
 * exactly those a merge from nothing gives (sorted by UTF-16 code units, as `<` and the default sort compare), so
 * term and word numbers, and hence answers, are the same (shards.test.ts).
 */
import { findSorted, type IndexView } from "./format";
import type { Vocabulary } from "./mine";

/** What a vocabulary reads of a loaded shard (shards.ts LoadedShard). */
export interface VocabularySource {
  view: Pick<IndexView, "terms" | "words" | "wordTerm">;
  /** Indexes into `view.words` of the words its public documents had. */
  publicWords: ArrayLike<number>;
}
type LoadedShard = VocabularySource;

/** A merged vocabulary and, per entry, how many of its shards have it. Immutable once made. */
export interface ShardVocabulary {
  shards: readonly LoadedShard[];
  terms: string[];
  termShards: Int32Array;
  words: string[];
  wordShards: Int32Array;
  /** Per word, how many shards have it as a word of their public documents (mine.ts compounds read those). */
  publicShards: Int32Array;
  /** Per word, its term's index in `terms`. */
  wordTerm: Int32Array;
}

const EMPTY: ShardVocabulary = { shards: [], terms: [], termShards: new Int32Array(0), words: [], wordShards: new Int32Array(0), publicShards: new Int32Array(0), wordTerm: new Int32Array(0) };

/**
 * The vocabulary of `shards`, derived from `previous` (the vocabulary of an earlier set of shards: those it has and
 * `shards` lacks leave, the others join) when that is cheaper than starting from nothing. Shards are told apart by
 * identity (a loaded shard is immutable and cached by its content address).
 */
export function shardVocabulary(shards: readonly LoadedShard[], previous?: ShardVocabulary): ShardVocabulary {
  let base = previous ?? EMPTY;
  const kept = new Set(shards);
  let leaving = base.shards.filter((s) => !kept.has(s));
  const had = new Set(base.shards);
  let joining = shards.filter((s) => !had.has(s));
  // Past a quarter of the shards changing, starting over costs about the same and keeps no stale entries around.
  if (leaving.length + joining.length > Math.max(4, shards.length / 4)) {
    base = EMPTY;
    leaving = [];
    joining = shards.slice();
  }
  let v = base;
  if (joining.length) v = join(v, joining);
  if (leaving.length) v = leave(v, leaving);
  return { ...v, shards };
}

/** Sorted distinct union of `lists` (each sorted and distinct) with, per entry, how many lists have it. */
function union(lists: readonly (readonly string[])[]): { keys: string[]; counts: Int32Array } {
  if (lists.length === 1) return { keys: lists[0].slice(), counts: new Int32Array(lists[0].length).fill(1) };
  const count = new Map<string, number>();
  for (const list of lists) for (const k of list) count.set(k, (count.get(k) ?? 0) + 1);
  const keys = [...count.keys()].sort();
  return { keys, counts: Int32Array.from(keys, (k) => count.get(k)!) };
}

/**
 * Linear merge of two sorted distinct lists with counts: the merged list, its counts summed, and where each entry
 * of `a` and of `b` went.
 */
function mergeCounted(a: string[], ac: Int32Array, b: readonly string[], bc: Int32Array) {
  // Nothing new (a republish that names the same things): the list is kept as it is, only counts move.
  const at = Int32Array.from(b, (k) => findSorted(a, k));
  if (at.every((k) => k >= 0)) {
    const counts = ac.slice();
    at.forEach((k, j) => (counts[k] += bc[j]));
    return { keys: a, counts, fromA: undefined, fromB: at };
  }
  const keys: string[] = [];
  const counts: number[] = [];
  const fromA = new Int32Array(a.length);
  const fromB = new Int32Array(b.length);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) {
      fromA[i] = keys.length;
      keys.push(a[i]);
      counts.push(ac[i++]);
    } else if (i >= a.length || b[j] < a[i]) {
      fromB[j] = keys.length;
      keys.push(b[j]);
      counts.push(bc[j++]);
    } else {
      fromA[i] = fromB[j] = keys.length;
      keys.push(a[i]);
      counts.push(ac[i++] + bc[j++]);
    }
  }
  return { keys, counts: Int32Array.from(counts), fromA, fromB };
}

function join(v: ShardVocabulary, joining: readonly LoadedShard[]): ShardVocabulary {
  const t = union(joining.map((s) => s.view.terms));
  const terms = mergeCounted(v.terms, v.termShards, t.keys, t.counts);
  const w = union(joining.map((s) => s.view.words));
  const words = mergeCounted(v.words, v.wordShards, w.keys, w.counts);
  const publicShards = new Int32Array(words.keys.length);
  const wordTerm = new Int32Array(words.keys.length).fill(-1);
  for (let k = 0; k < v.words.length; k++) {
    const g = words.fromA ? words.fromA[k] : k;
    publicShards[g] = v.publicShards[k];
    wordTerm[g] = terms.fromA ? terms.fromA[v.wordTerm[k]] : v.wordTerm[k];
  }
  for (const s of joining) {
    const { words: local, wordTerm: localTerm, terms: localTerms } = s.view;
    for (let k = 0; k < s.publicWords.length; k++) publicShards[findSorted(words.keys, local[s.publicWords[k]])]++;
    for (let k = 0; k < local.length; k++) {
      const g = findSorted(words.keys, local[k]);
      // A word's term is the same in every shard (its stem): the first shard to bring the word sets it.
      if (wordTerm[g] < 0) wordTerm[g] = findSorted(terms.keys, localTerms[localTerm[k]]);
    }
  }
  return { shards: v.shards, terms: terms.keys, termShards: terms.counts, words: words.keys, wordShards: words.counts, publicShards, wordTerm };
}

function leave(v: ShardVocabulary, leaving: readonly LoadedShard[]): ShardVocabulary {
  const termShards = v.termShards.slice();
  const wordShards = v.wordShards.slice();
  const publicShards = v.publicShards.slice();
  for (const s of leaving) {
    for (const t of s.view.terms) termShards[findSorted(v.terms, t)]--;
    for (const w of s.view.words) wordShards[findSorted(v.words, w)]--;
    for (let k = 0; k < s.publicWords.length; k++) publicShards[findSorted(v.words, s.view.words[s.publicWords[k]])]--;
  }
  // Nothing gone (every word and term of the leaving shards is still in another shard): the lists are kept.
  if (termShards.every((c) => c > 0) && wordShards.every((c) => c > 0)) return { ...v, termShards, wordShards, publicShards };
  const termAt = new Int32Array(v.terms.length);
  const terms: string[] = [];
  const termCounts: number[] = [];
  for (let k = 0; k < v.terms.length; k++) {
    termAt[k] = terms.length;
    if (termShards[k] > 0) (terms.push(v.terms[k]), termCounts.push(termShards[k]));
  }
  const words: string[] = [];
  const wordCounts: number[] = [];
  const publics: number[] = [];
  const wordTerm: number[] = [];
  for (let k = 0; k < v.words.length; k++) {
    if (wordShards[k] <= 0) continue;
    words.push(v.words[k]);
    wordCounts.push(wordShards[k]);
    publics.push(publicShards[k]);
    wordTerm.push(termAt[v.wordTerm[k]]);
  }
  return { shards: v.shards, terms, termShards: Int32Array.from(termCounts), words, wordShards: Int32Array.from(wordCounts), publicShards: Int32Array.from(publics), wordTerm: Int32Array.from(wordTerm) };
}

/** The public words of a vocabulary as mine.ts reads them (surface word → stem), without copying it into a Map. */
export function publicVocabularyOf(v: ShardVocabulary): Vocabulary {
  const at = (w: string) => {
    const k = findSorted(v.words, w);
    return k >= 0 && v.publicShards[k] > 0 ? k : -1;
  };
  return {
    get: (w) => {
      const k = at(w);
      return k < 0 ? undefined : v.terms[v.wordTerm[k]];
    },
    has: (w) => at(w) >= 0,
    *keys() {
      for (let k = 0; k < v.words.length; k++) if (v.publicShards[k] > 0) yield v.words[k];
    },
  };
}
