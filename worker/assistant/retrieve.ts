/**
 * @module The assistant's retrieval (platform-free): passages from the portal's live search index, never a second
 * index, through the reader's own filter (`canRead` is applied by the engine before ranking and counting, so nothing
 * the reader cannot open is ever a passage). A question is searched whole (its rarest content words, at most the
 * engine's 12), per clause when it asks several things, and with the previous turn's subject carried over when it is
 * a follow-up; the rankings are fused (reciprocal rank fusion). Confidence is how much of the question's weight (each
 * word's inverse document frequency among readable documents) the best passages account for; the engine's own
 * expansion decides whether a passage answers a word (synonyms, thesaurus, typos), beside a literal stem match.
 */
import { stem } from "../search/analyze";
import type { SearchDocument, SearchIndex } from "../search/types";
import { carriedWords, clauses, contentWords, MAX_QUERY_WORDS, type PreviousTurn } from "./question";

/** Passages handed to an answer model, at most. */
export const MAX_PASSAGES = 6;
/** Results read per search (fusion depth). */
const DEPTH = 20;
/** Results read per single-word search to learn which passages answer the word. */
const WORD_DEPTH = 40;
/** Reciprocal rank fusion constant (Cormack et al.: 60 for deep lists; small lists want a smaller one). */
const RRF_K = 10;

/** One passage given to the answer model: a readable search document and where it ranked. */
export interface Passage {
  doc: SearchDocument;
  /** Fused retrieval score, higher is better (comparable within one retrieval). */
  score: number;
  /** Question words (folded) the passage answers. */
  covers: string[];
}

/** A question word with its weight: ln(1 + N / (1 + df)) over readable documents; df 0 weighs most. */
export interface WeightedWord {
  folded: string;
  stem: string;
  df: number;
  weight: number;
}

/** What retrieval found for one turn. */
export interface Retrieval {
  /** The query the turn was searched with (its words and the carried ones). */
  query: string;
  words: WeightedWord[];
  /** Words carried from the previous turn (a follow-up), folded. */
  carried: string[];
  passages: Passage[];
  /** Share (0-1) of the question's word weight the first three passages answer together. */
  confidence: number;
  /** Share (0-1) of the question's word weight the first passage answers alone. */
  topConfidence: number;
}

/** Options: the reader's filter (required) and locale. */
export interface RetrieveOptions {
  canRead: (labels: string[], policyPath?: string) => boolean;
  locale?: string;
  previous?: PreviousTurn;
}

/** Stems of a text's words, for literal matching. */
export function stemsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w) out.add(stem(w));
  return out;
}

/** The text a passage is matched and quoted from: title, section, identifiers and body. */
export function passageText(doc: SearchDocument): string {
  const f = doc.fields;
  return [doc.title, doc.section ?? "", f?.operationId ?? "", f?.method ?? "", f?.path ?? "", (f?.parameters ?? []).join(" "), (f?.properties ?? []).join(" "), doc.body].join("\n");
}

// Identifier pieces (`chat.postMessage` → chat, post, message) for literal matching.
function wordStems(folded: string): string[] {
  return folded.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(stem);
}

/** Retrieves passages for a question (and, for a follow-up, the previous turn). Never throws on odd input. */
export function retrieve(index: SearchIndex, question: string, opts: RetrieveOptions): Retrieval {
  const base = { canRead: opts.canRead, ...(opts.locale ? { preferLocale: opts.locale } : {}) };
  const own = contentWords(question).slice(0, 40);
  const carried = carriedWords(question, opts.previous);
  const total = Math.max(1, index.size);
  // Each word's readable document frequency and the documents answering it (the engine's expansion included).
  const answering = new Map<string, Set<string>>();
  const weigh = (folded: string): WeightedWord => {
    const found = index.search(`${folded} `, { ...base, limit: WORD_DEPTH });
    answering.set(folded, new Set(found.results.map((h) => h.doc.id)));
    return { folded, stem: wordStems(folded).join(" "), df: found.total, weight: Math.log(1 + total / (1 + found.total)) };
  };
  const words = own.map((w) => weigh(w.folded));
  const carriedWeighed = carried.map(weigh);
  // The rarest words when there are more than the engine reads, in the reader's order.
  const pick = (ws: WeightedWord[], n: number) => {
    const keep = new Set([...ws].sort((a, b) => b.weight - a.weight).slice(0, n).map((w) => w.folded));
    return ws.filter((w) => keep.has(w.folded)).map((w) => w.folded);
  };
  const queries: Array<{ q: string; weight: number }> = [];
  const main = pick(words, MAX_QUERY_WORDS);
  if (carried.length) {
    const room = Math.max(0, MAX_QUERY_WORDS - Math.min(main.length, MAX_QUERY_WORDS - 2));
    queries.push({ q: [...main.slice(0, MAX_QUERY_WORDS - Math.min(room, carried.length)), ...pick(carriedWeighed, room)].join(" "), weight: 1.2 });
    queries.push({ q: main.join(" "), weight: 0.6 });
  } else {
    queries.push({ q: main.join(" "), weight: 1 });
  }
  const parts = clauses(question);
  if (parts.length > 1) {
    for (const part of parts.slice(0, 4)) {
      const ws = words.filter((w) => contentWords(part).some((c) => c.folded === w.folded));
      if (ws.length) queries.push({ q: [...pick(ws, MAX_QUERY_WORDS - 2), ...(carried.length ? carried.slice(0, 2) : [])].join(" "), weight: 0.5 });
    }
  }
  const fused = new Map<string, { doc: SearchDocument; score: number }>();
  for (const { q, weight } of queries) {
    if (!q.trim()) continue;
    const found = index.search(`${q} `, { ...base, limit: DEPTH });
    found.results.forEach((hit, rank) => {
      const entry = fused.get(hit.doc.id) ?? { doc: hit.doc, score: 0 };
      entry.score += weight / (RRF_K + rank + 1);
      fused.set(hit.doc.id, entry);
    });
  }
  const all = [...words, ...carriedWeighed.filter((c) => !words.some((w) => w.folded === c.folded))];
  const ranked = [...fused.values()].sort((a, b) => b.score - a.score).slice(0, MAX_PASSAGES);
  const passages: Passage[] = ranked.map(({ doc, score }) => {
    const stems = stemsOf(passageText(doc));
    const covers = all.filter((w) => answering.get(w.folded)?.has(doc.id) || wordStems(w.folded).every((s) => stems.has(s))).map((w) => w.folded);
    return { doc, score, covers };
  });
  // A carried word counts half: the follow-up's own words say what is new.
  const share = (w: WeightedWord) => (words.includes(w) ? w.weight : w.weight / 2);
  const weightOf = (ws: Iterable<string>) => {
    let sum = 0;
    for (const f of ws) {
      const w = all.find((x) => x.folded === f);
      if (w) sum += share(w);
    }
    return sum;
  };
  const whole = all.reduce((s, w) => s + share(w), 0) || 1;
  const union = new Set(passages.slice(0, 3).flatMap((p) => p.covers));
  return {
    query: queries[0]?.q ?? "",
    words: all,
    carried,
    passages,
    confidence: weightOf(union) / whole,
    topConfidence: passages[0] ? weightOf(passages[0].covers) / whole : 0,
  };
}
