/**
 * @module Query words → term groups. Each word becomes one group of alternative terms with a confidence weight:
 * the exact stem (1), completions of a word still being typed, typo corrections from the index's vocabulary,
 * and synonyms (the general thesaurus, API abbreviations, and relations mined from this portal's content).
 * A document's score for a group is its best alternative, so alternatives never add up.
 */
import { STOPWORDS, stem } from "./analyze";
import { findSorted, lowerBound, type IndexView } from "./format";
import { TypoFinder } from "./fuzzy";
import type { ParsedQuery } from "./query";
import { isVersion, isWholeIdentifier } from "./tokenize";
import { isDictionaryWord, synonymsOf } from "./synonyms";

/** One way a query word can match: a term index and how much a match through it is worth (0..1]. */
export interface Alternative {
  term: number;
  weight: number;
  /** The surface word this alternative stands for (for suggestions). */
  word: string;
  how: "exact" | "prefix" | "typo" | "synonym";
  /**
   * A whole identifier standing for each of its parts: `typed` when the reader typed an identifier (rank.ts counts a
   * document having it whole as naming the thing, whatever field it is in), `run` when adjacent typed words are one
   * identifier of the portal's (an ordinary alternative).
   */
  whole?: "typed" | "run";
}

/** All alternatives of one query word. */
export interface TermGroup {
  word: string;
  alts: Alternative[];
  /** A question-frame word: adds a little when it matches, never counts against coverage. */
  optional?: boolean;
  /** A stopword the reader typed inside a run of words that is one identifier of the portal's: that identifier is its only alternative. */
  stopword?: boolean;
}

/**
 * A completion of the word being typed counts as much as the word itself: "watch" is as likely the start of
 * "watchlist" as the stem of "watched" (was 0.9, which put every inflection of the typed letters before any longer
 * word). An identifier's completion stays below the identifier typed whole (`room_policies` before
 * `room_policies_config`).
 */
const PREFIX_WEIGHT = 1;
const IDENT_PREFIX_WEIGHT = 0.9;
const TYPO_WEIGHT = [1, 0.8, 0.6];
const MAX_PREFIX_TERMS = 48;
const MAX_PREFIX_SCAN = 2000;
/**
 * How far a synonym is damped when the portal uses the typed word itself (general thesaurus, then curated or
 * mined): base + (1 - base) × df(synonym) / (df(synonym) + df(typed)). Mutable only for bench/search-documents.mjs
 * `--lovo` (tuned on one vendor's queries, scored on the others); nothing else writes it.
 */
export const EXPAND_TUNING = { synonymDamping: 0.5, curatedDamping: 0.8 };
const PHRASE_WEIGHT = 0.9;
const RARE_DF = 2;
const RARE_RATIO = 20;
const RARE_TYPO_DAMPING = 0.8;
/** Shortest typed form the portal never writes that is corrected beside its stem (MiniSearch's fuzzy 0.2 allows one edit from 5 letters). */
const UNWRITTEN_MIN = 5;
const MAX_TYPO_TERMS = 12;
/**
 * Corrections of a dictionary word the portal does not use ("halt" → hall) weigh this much of a correction of a
 * non-word: the reader more likely chose another word for the thing (its synonyms compete) than mistyped one.
 */
const DICTIONARY_TYPO_DAMPING = 0.6;

/** `word` with one letter dropped or two neighbours swapped (never the first letter): prefixes to complete. */
function typoVariants(word: string): string[] {
  const out = new Set<string>();
  for (let i = 1; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  for (let i = 1; i + 1 < word.length; i++) out.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  out.delete(word);
  return [...out];
}

/** Vocabulary lookups a query needs, over one loaded index. */
export class Expander {
  private readonly typos: TypoFinder;

  constructor(private readonly data: Pick<IndexView, "terms" | "words" | "wordTerm" | "related" | "wordParts">) {
    this.typos = new TypoFinder(data.words, data.wordParts);
  }

  /**
   * Groups for a parsed query; words with no alternative at all still get a group (they count as unmatched).
   * `df` is the term's document frequency among the documents the reader may open: every decision here (is the
   * word known, which completions and corrections, how much to damp a synonym) uses it, never the index-wide
   * count, so private documents cannot change what a reader's query expands to.
   */
  groups(q: ParsedQuery, df: (term: number) => number): TermGroup[] {
    const readable = (t: number) => df(t) > 0;
    const groups = q.words.map((w, i) => this.group(w, q.lastIsPrefix && i === q.words.length - 1, readable, df));
    // Two-word phrases with one-word synonyms ("look up" → consult, "set up" → establish): each of the two
    // words may be matched by them, so a document saying the synonym satisfies the phrase.
    for (let i = 0; i + 1 < groups.length; i++) {
      // Two words the portal writes as one ("data base" → database, "web hook" → webhook).
      // Only when the joined word is a term of its own: stemming can fold it back into the first word
      // ("credential" + "li", being typed → "credentialli" → credenti), and then any document with the first word
      // would satisfy the second for free, whatever the reader was typing.
      const joined = this.termOf(stem(q.words[i] + q.words[i + 1]), readable);
      if (joined >= 0 && joined !== this.termOf(stem(q.words[i])) && joined !== this.termOf(stem(q.words[i + 1]))) {
        const alt: Alternative = { term: joined, weight: PHRASE_WEIGHT, word: q.words[i] + q.words[i + 1], how: "exact" };
        for (const g of [groups[i], groups[i + 1]]) if (!g.alts.some((a) => a.term === joined)) g.alts.push(alt);
      }
      for (const s of synonymsOf(`${stem(q.words[i])}_${stem(q.words[i + 1])}`, {}, this.data.terms)) {
        const t = this.termOf(s.term, readable);
        if (t < 0) continue;
        const alt: Alternative = { term: t, weight: s.weight * PHRASE_WEIGHT, word: s.term, how: "synonym" };
        for (const g of [groups[i], groups[i + 1]]) if (!g.alts.some((a) => a.term === t && a.weight >= alt.weight)) g.alts.push(alt);
      }
    }
    // A stopword being typed is the start of a longer word ("list order it" → items): its completions are the word
    // being typed, required like any other; the stopword itself is never looked up. It may also end a run that is one
    // identifier ("last modified at" → `last_modified_at`), so its group is settled after the identifiers.
    const typing: TermGroup | undefined = q.typing && q.typing.length >= 2 ? { word: q.typing, alts: this.completions(q.typing, (t) => (t < 0 ? 0 : df(t))).filter((a) => !STOPWORDS.has(a.word)) } : undefined;
    this.identifiers(q, groups, readable, df, typing);
    if (typing?.alts.length) groups.push(typing);
    for (const w of q.optional) {
      const t = this.termOf(stem(w), readable);
      if (t >= 0) groups.push({ word: w, alts: [{ term: t, weight: 1, word: w, how: "exact" }], optional: true });
    }
    return groups;
  }

  /**
   * Whole-identifier alternatives: each typed identifier's whole form (exact; completed when it is the word being
   * typed; else corrected) for every one of its parts, and runs of adjacent words the portal has as one identifier.
   */
  private identifiers(q: ParsedQuery, groups: TermGroup[], readable: (term: number) => boolean, df: (term: number) => number, typing?: TermGroup): void {
    const push = (i: number, alt: Alternative) => {
      const g = i < 0 ? typing! : groups[i];
      if (!g.alts.some((a) => a.term === alt.term && a.whole && a.weight >= alt.weight)) g.alts.push(alt);
    };
    const last = q.words.length - 1;
    for (const id of q.idents) {
      const alts: Alternative[] = [];
      const exact = this.termOf(id.whole, readable);
      if (exact >= 0) alts.push({ term: exact, weight: 1, word: id.whole, how: "exact" });
      const version = isVersion(id.whole);
      if (q.lastIsPrefix && id.parts.includes(last)) {
        for (const a of this.completions(id.whole, (t) => (t < 0 ? 0 : df(t)), version ? "version" : "identifier")) alts.push({ ...a, weight: IDENT_PREFIX_WEIGHT });
      }
      // A mistyped version is another version: only identifiers are corrected.
      if (!alts.length && !version) {
        for (const c of this.typos.identifier(id.whole)) {
          if (df(this.data.wordTerm[c.word]) > 0) alts.push({ term: this.data.wordTerm[c.word], weight: TYPO_WEIGHT[c.distance], word: this.data.words[c.word], how: "typo" });
        }
      }
      for (const a of alts.slice(0, MAX_TYPO_TERMS)) for (const i of id.parts) push(i, { ...a, whole: "typed" });
    }
    // Adjacent typed words, stopwords included, that are one identifier of the portal's (query.ts `runs`). A stopword
    // inside such a run is a part of that identifier, not filler: it becomes a word of the query that the identifier
    // alone matches ("has recycle bin": only a document naming `hasRecycleBin` has the "has").
    const stops = new Map<number, TermGroup>();
    for (const run of q.runs) {
      const t = this.termOf(run.whole, readable);
      if (t < 0) continue;
      const alt: Alternative = { term: t, weight: 1, word: run.whole, how: "exact", whole: "run" };
      for (const k of run.parts) push(k, alt);
      if (run.typing && typing) push(-1, alt);
      for (const p of run.stops) {
        let g = stops.get(p.at);
        if (!g) stops.set(p.at, (g = { word: p.word, alts: [], stopword: true }));
        if (!g.alts.some((a) => a.term === t)) g.alts.push(alt);
      }
    }
    groups.push(...stops.values());
  }

  // A word only private documents contain behaves exactly like an unknown word (corrected as a typo).
  private group(word: string, prefix: boolean, readable: (term: number) => boolean, dfOf: (term: number) => number): TermGroup {
    const df = (t: number) => (t < 0 ? 0 : dfOf(t));
    const best = new Map<number, Alternative>();
    const add = (a: Alternative) => {
      const old = best.get(a.term);
      if (!old || old.weight < a.weight) best.set(a.term, a);
    };
    const exact = this.termOf(stem(word), readable);
    if (exact >= 0) add({ term: exact, weight: 1, word, how: "exact" });
    const raw = this.termOf(word, readable);
    if (raw >= 0) add({ term: raw, weight: 1, word, how: "exact" });
    if (prefix && word.length >= 2) {
      for (const a of this.completions(word, df)) add(a);
    }
    if (exact < 0 && raw < 0 && !(prefix && best.size)) {
      const damp = isDictionaryWord(stem(word)) ? DICTIONARY_TYPO_DAMPING : 1;
      for (const a of this.corrections(word, df)) add({ ...a, weight: a.weight * damp });
    }
    // A typo in the word being typed ("kubenr"): complete the strings one deletion or one swap away from it.
    if (prefix && !best.size && word.length >= 4) {
      for (const v of typoVariants(word)) for (const a of this.completions(v, df)) add({ ...a, weight: a.weight * TYPO_WEIGHT[1] });
    }
    // The word being typed competes only when its letters complete no longer word (typed to its end, as far as we can tell).
    else if ((exact >= 0 || raw >= 0) && !(prefix && [...best.values()].some((a) => a.how === "prefix"))) {
      const own = Math.max(df(exact), df(raw));
      // A word the portal uses once or twice may itself be a typo'd form of a common word ("lsit" in one code
      // sample): corrections much more frequent than it compete, a little below a clean correction. A form the
      // portal never writes, found only through its stem ("rolles" → roll, which "rolled" gives), is as much a guess
      // as a correction: corrections commoner than that stem compete too ("rolles" → roles).
      const written = this.isWritten(word, df);
      // Not for short words: one edit from "cap" are gap, caa, cnp, other words rather than what the reader meant.
      const least = !written && word.length >= UNWRITTEN_MIN ? own + 1 : !prefix && own <= RARE_DF ? RARE_RATIO * own : Infinity;
      if (least < Infinity) for (const a of this.corrections(word, df)) if (df(a.term) >= least) add({ ...a, weight: a.weight * RARE_TYPO_DAMPING });
    }
    // A word the portal itself uses most likely means what it says: its synonyms are only a fallback.
    const own = Math.max(df(exact), df(raw));
    for (const s of synonymsOf(stem(word), this.data.related, this.data.terms)) {
      const t = this.termOf(s.term, readable);
      if (t < 0) continue;
      // Damped by how much more the portal uses the typed word than the synonym (k8s, rare, vs kubernetes).
      const base = s.curated ? EXPAND_TUNING.curatedDamping : EXPAND_TUNING.synonymDamping;
      const n = df(t);
      const damp = base + ((1 - base) * n) / (n + own);
      add({ term: t, weight: s.weight * damp, word: s.term, how: "synonym" });
    }
    return { word, alts: [...best.values()] };
  }

  /** Whether the portal's readable documents write `word` itself (not only another form with its stem). */
  private isWritten(word: string, df: (term: number) => number): boolean {
    const i = findSorted(this.data.words, word);
    return i >= 0 && df(this.data.wordTerm[i]) > 0;
  }

  private termOf(term: string, readable: (term: number) => boolean = () => true): number {
    const t = findSorted(this.data.terms, term);
    return t >= 0 && readable(t) ? t : -1;
  }

  /**
   * Vocabulary words completing `prefix`: whole identifiers only for an identifier's prefix, versions only for a
   * version's (`2.3` → `2.3.0`, `2.3.1`), else words (identifiers excluded).
   */
  private completions(prefix: string, df: (term: number) => number, of: "word" | "identifier" | "version" = "word"): Alternative[] {
    const { words, wordTerm } = this.data;
    const out: Alternative[] = [];
    for (let i = lowerBound(words, prefix); i < words.length && words[i].startsWith(prefix); i++) {
      if (words[i] === prefix || df(wordTerm[i]) === 0 || isWholeIdentifier(words[i]) !== (of === "identifier") || (of === "version" && !isVersion(words[i]))) continue;
      out.push({ term: wordTerm[i], weight: PREFIX_WEIGHT, word: words[i], how: "prefix" });
      // A one- or two-letter prefix of a large vocabulary: enough candidates to pick the most frequent from.
      if (out.length >= MAX_PREFIX_SCAN) break;
    }
    if (out.length > MAX_PREFIX_TERMS) out.sort((a, b) => df(b.term) - df(a.term));
    return out.slice(0, MAX_PREFIX_TERMS);
  }

  private corrections(word: string, df: (term: number) => number): Alternative[] {
    const { words, wordTerm } = this.data;
    return this.typos
      .find(word)
      .map((c) => ({ term: wordTerm[c.word], weight: TYPO_WEIGHT[c.distance], word: words[c.word], how: "typo" as const }))
      .filter((a) => df(a.term) > 0)
      .sort((a, b) => b.weight - a.weight || df(b.term) - df(a.term))
      .slice(0, MAX_TYPO_TERMS);
  }
}
