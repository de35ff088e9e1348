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
const DEPTH = 30;
/** Results read per single-word search to learn which passages answer the word. */
const WORD_DEPTH = 40;
/** Query reductions ([rarest words kept, fusion weight]), and the weights of the other searches. */
export const RETRIEVAL_TUNING = {
  reductions: [[MAX_QUERY_WORDS, 1]] as Array<[number, number]>,
  raw: 0,
  clause: 0.5,
  carried: 3,
  uncarried: 0.4,
  namedApi: 1.6,
  relatedShare: 0.5,
  carriedShare: 1,
  /** Fused candidates re-scored by their own coverage of the question: score × (coverFloor + coverage) ^ coverPower. */
  rerankDepth: 20,
  coverFloor: 0.5,
  coverPower: 1,
  /**
   * Word votes: each of the question's own words searched alone ranks documents (its first `wordVoteDepth`); a
   * document's vote is the sum over words of weight / (RRF_K + rank), and the vote ranking is fused with this weight.
   */
  wordVote: 0.5,
  wordVoteDepth: 10,
  /** Changelog entries' coverage is measured on their title and their best line (an entry lists many changes). */
  changelogLine: true,
  /**
   * A passage after the first joins the confidence's union only when it answers this share of the question on its
   * own, and at least `unionWords` of its words (literally): three pages each holding one word of "partner volume
   * rates" do not answer it together.
   */
  unionMin: 0.2,
  unionWords: 2,
  /**
   * The engine's own first result for the question as typed (what search.json ranks first; not searched for a
   * follow-up, whose words alone lack the subject) has its re-scored score multiplied by this: the assistant should
   * not be worse than plain search at rank 1. 1.1-1.3 gain the same on the dev set; 1.3 answers one more unanswerable.
   */
  searchTop: 1.2,
  /**
   * The semantic ranking (the port's vector matches for the question, mapped through the live index with the
   * reader's filters; `RetrieveOptions.semantic`) fused with this weight, its first `semanticDepth` documents.
   * 0: no semantic port reaches the assistant today. With the embedded word-vector experiment (docs/assistant.md)
   * 0.15-1 never lifted the dev sets (0.3 and up lost single and follow-up questions on the main set).
   */
  semantic: 0,
  semanticDepth: 10,
  /**
   * Resource neighbours of a follow-up: when the previous turn's first `neighboursFrom` sources include operations,
   * the other operations of their resources (`sameResource`: the same API and tag, a tag under it, or the same path
   * without its trailing parameters) are ranked for the follow-up's own words (with the tag's words) and fused with
   * weight `neighbours`; the re-scoring multiplies them by `neighbourBoost`. The previous page itself is not one of
   * them: a follow-up with its own action ("see all the ones I've created" after Create a subaccount) asks for
   * another operation of the same resource, and the carried words alone pull the previous page back. 0 = off.
   */
  neighbours: 1,
  neighbourBoost: 1.3,
  neighboursFrom: 2,
};
/** Reciprocal rank fusion constant (Cormack et al.: 60 for deep lists; small lists want a smaller one). */
const RRF_K = 10;

/** One passage given to the answer model: a readable search document and where it ranked. */
export interface Passage {
  doc: SearchDocument;
  /** Fused retrieval score, higher is better (comparable within one retrieval). */
  score: number;
  /** Question words (folded) the passage contains (their stems). */
  covers: string[];
  /** Question words the passage answers only through the engine's expansion (synonyms, typos): count half. */
  related?: string[];
}

/** A question word with its weight: ln(1 + N / (1 + df)) over readable documents; df 0 weighs most. */
export interface WeightedWord {
  folded: string;
  stem: string;
  df: number;
  /**
   * Documents among the word's first WORD_DEPTH results that contain it literally (its stems): 0 means the docs
   * only reach it through a synonym or a typo correction, i.e. the portal does not use the reader's word.
   */
  literal: number;
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
  /**
   * Vector ids from the semantic port for the question (best first): fused as one more ranking (weight
   * `RETRIEVAL_TUNING.semantic`); only ids the live index maps to documents the reader may open count.
   */
  semantic?: readonly string[];
  /** Passages returned, at most (default MAX_PASSAGES; the benches read the first 20 re-scored candidates to see where a page ranked). */
  limit?: number;
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
  // Each word's own results with their rank: a document many rare words reach on their own is a candidate even when
  // no whole-question search ranks it (the reader's words spread over a question the engine reads as one query).
  const wordRanks = new Map<string, Map<string, number>>();
  const docsById = new Map<string, SearchDocument>();
  const apis = new Set<string>();
  const stemCache = new Map<string, Set<string>>();
  const stemsOfDoc = (doc: SearchDocument) => {
    let got = stemCache.get(doc.id);
    if (!got) stemCache.set(doc.id, (got = stemsOf(passageText(doc).slice(0, 4000))));
    return got;
  };
  const weigh = (folded: string): WeightedWord => {
    const found = index.search(`${folded} `, { ...base, limit: WORD_DEPTH });
    answering.set(folded, new Set(found.results.map((h) => h.doc.id)));
    wordRanks.set(folded, new Map(found.results.map((h, i) => [h.doc.id, i])));
    for (const h of found.results) docsById.set(h.doc.id, h.doc);
    for (const h of found.results) if (h.doc.api) apis.add(h.doc.api);
    const pieces = wordStems(folded);
    const literal = found.results.filter((h) => pieces.every((p) => stemsOfDoc(h.doc).has(p))).length;
    // The literal count scales the engine's df: a word reached mostly through synonyms is rarer than its df says.
    const df = found.results.length ? (found.total * literal) / found.results.length : 0;
    return { folded, stem: pieces.join(" "), df: found.total, literal, weight: Math.log(1 + total / (1 + df)) };
  };
  const words = own.map((w) => weigh(w.folded));
  const carriedWeighed = carried.map(weigh);
  // The rarest words when there are more than the engine reads, in the reader's order.
  const pick = (ws: WeightedWord[], n: number) => {
    const keep = new Set([...ws].sort((a, b) => b.weight - a.weight).slice(0, n).map((w) => w.folded));
    return ws.filter((w) => keep.has(w.folded)).map((w) => w.folded);
  };
  const queries: Array<{ q: string; weight: number; raw?: boolean }> = [];
  // Verbose questions are searched as several reductions (all words, the rarest few: query reduction keeps the
  // topic and drops the chatter) and as typed (the engine's own question frames), fused.
  const carry = pick(carriedWeighed, RETRIEVAL_TUNING.carried);
  const withCarry = (ws: string[]) => [...ws.slice(0, MAX_QUERY_WORDS - carry.length), ...carry].join(" ");
  for (const [n, weight] of RETRIEVAL_TUNING.reductions) {
    const ws = pick(words, n);
    if (ws.length) queries.push({ q: withCarry(ws), weight });
    if (carry.length) queries.push({ q: ws.join(" "), weight: weight * RETRIEVAL_TUNING.uncarried });
  }
  if (!carry.length) queries.push({ q: question.slice(0, 256), weight: RETRIEVAL_TUNING.raw, raw: true });
  const parts = clauses(question);
  if (parts.length > 1) {
    for (const part of parts.slice(0, 4)) {
      const ws = words.filter((w) => contentWords(part).some((c) => c.folded === w.folded));
      if (ws.length) queries.push({ q: withCarry(pick(ws, MAX_QUERY_WORDS)), weight: RETRIEVAL_TUNING.clause });
    }
  }
  const all = [...words, ...carriedWeighed.filter((c) => !words.some((w) => w.folded === c.folded))];
  const bare = (x: string) => x.toLowerCase().replace(/[^a-z0-9]/g, "");
  const named = new Set([...apis].filter((a) => all.some((w) => bare(w.folded) === bare(a))));
  const fused = new Map<string, { doc: SearchDocument; score: number }>();
  let searchTop: string | undefined;
  for (const { q, weight, raw } of queries) {
    if (!q.trim() || (raw && !weight && RETRIEVAL_TUNING.searchTop === 1)) continue;
    const found = index.search(raw ? q : `${q} `, { ...base, limit: DEPTH * (named.size ? 2 : 1) });
    if (raw) searchTop = found.results[0]?.doc.id;
    found.results.forEach((hit, rank) => {
      const entry = fused.get(hit.doc.id) ?? { doc: hit.doc, score: 0 };
      entry.score += weight / (RRF_K + rank + 1);
      fused.set(hit.doc.id, entry);
    });
  }
  // A follow-up asks about the previous page's resource with an action of its own ("and how do I see all the ones I've
  // created?" after Create an account): the resource's other operations, ranked for the follow-up's own words.
  const neighbours = new Set<string>();
  if (RETRIEVAL_TUNING.neighbours > 0 && carry.length && opts.previous) {
    const spaced = (x: string) => x.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").replace(/[_.]+/g, " ");
    const near = new Map<string, { doc: SearchDocument; rank: number }>();
    for (const title of opts.previous.titles.slice(0, RETRIEVAL_TUNING.neighboursFrom)) {
      const prev = index.search(`${title} `, { ...base, limit: 10 }).results.find((h) => h.doc.title === title)?.doc;
      if (prev?.kind !== "operation" || !prev.api) continue;
      const q = [spaced(prev.section ?? ""), ...words.map((w) => w.folded)].join(" ").trim();
      const found = index.search(`${q} `, { ...base, limit: 100 });
      found.results.filter((h) => h.doc.kind === "operation" && h.doc.api === prev.api && h.doc.id !== prev.id && sameResource(h.doc, prev)).forEach((h, rank) => {
        const had = near.get(h.doc.id);
        if (!had || had.rank > rank) near.set(h.doc.id, { doc: h.doc, rank });
      });
    }
    [...near.values()].sort((a, b) => a.rank - b.rank).slice(0, DEPTH).forEach(({ doc }, rank) => {
      neighbours.add(doc.id);
      const entry = fused.get(doc.id) ?? { doc, score: 0 };
      entry.score += RETRIEVAL_TUNING.neighbours / (RRF_K + rank + 1);
      fused.set(doc.id, entry);
    });
  }
  if (RETRIEVAL_TUNING.wordVote > 0) {
    const votes = new Map<string, number>();
    for (const w of words) {
      const ranks = wordRanks.get(w.folded);
      if (!ranks) continue;
      for (const [id, rank] of ranks) if (rank < RETRIEVAL_TUNING.wordVoteDepth) votes.set(id, (votes.get(id) ?? 0) + w.weight / (RRF_K + rank + 1));
    }
    [...votes].sort((a, b) => b[1] - a[1]).slice(0, DEPTH).forEach(([id], rank) => {
      const entry = fused.get(id) ?? { doc: docsById.get(id)!, score: 0 };
      entry.score += RETRIEVAL_TUNING.wordVote / (RRF_K + rank + 1);
      fused.set(id, entry);
    });
  }
  if (RETRIEVAL_TUNING.semantic > 0 && opts.semantic?.length) {
    index.semanticDocuments(opts.semantic, { ...base, limit: RETRIEVAL_TUNING.semanticDepth }).forEach((doc, rank) => {
      const entry = fused.get(doc.id) ?? { doc, score: 0 };
      entry.score += RETRIEVAL_TUNING.semantic / (RRF_K + rank + 1);
      fused.set(doc.id, entry);
    });
  }
  // A question naming one of the portal's APIs ("in Slack", "on Twilio") is about that API: its operations, and
  // written pages that mention it, rank ahead of other APIs' operations that happen to share the words.
  if (named.size) {
    const words = all.filter((w) => [...named].some((a) => w.folded.replace(/[^a-z0-9]/g, "") === a.toLowerCase().replace(/[^a-z0-9]/g, "")));
    for (const entry of fused.values()) {
      const d = entry.doc;
      const about = d.api ? named.has(d.api) : words.some((w) => stemsOf(`${d.title} ${d.section ?? ""} ${d.body.slice(0, 2000)}`).has(stem(w.folded)));
      entry.score *= about ? RETRIEVAL_TUNING.namedApi : 1 / RETRIEVAL_TUNING.namedApi;
    }
  }
  const literalWeight = (stems: Set<string>) => all.reduce((sum, w) => sum + (wordStems(w.folded).every((x) => stems.has(x)) ? w.weight : 0), 0);
  const passageOf = ({ doc, score }: { doc: SearchDocument; score: number }): Passage => {
    let stems = stemsOfDoc(doc);
    if (RETRIEVAL_TUNING.changelogLine && doc.kind === "changelog") {
      // An entry that names many operations covers a question's words on different lines: only its best line (with
      // the title) says whether it is about the question.
      let best = stemsOf(`${doc.title} ${doc.section ?? ""}`);
      let bestWeight = -1;
      for (const line of doc.body.slice(0, 4000).split(/\n+/)) {
        const got = stemsOf(`${doc.title} ${doc.section ?? ""} ${line}`);
        const weight = literalWeight(got);
        if (weight > bestWeight) [best, bestWeight] = [got, weight];
      }
      stems = best;
    }
    const literally = all.filter((w) => wordStems(w.folded).every((s) => stems.has(s))).map((w) => w.folded);
    const throughEngine = all.filter((w) => !literally.includes(w.folded) && answering.get(w.folded)?.has(doc.id)).map((w) => w.folded);
    return { doc, score, covers: literally, related: throughEngine };
  };
  // A carried word counts less than the follow-up's own words (they say what is new), but it is the subject.
  const share = (w: WeightedWord) => (words.includes(w) ? w.weight : w.weight * RETRIEVAL_TUNING.carriedShare);
  const weightOf = (ws: Iterable<string>) => {
    let sum = 0;
    for (const f of ws) {
      const w = all.find((x) => x.folded === f);
      if (w) sum += share(w);
    }
    return sum;
  };
  const whole = all.reduce((s, w) => s + share(w), 0) || 1;
  // Literal matches count whole, matches through the engine's expansion half (a synonym may not mean the same).
  const coverage = (ps: Passage[]) => {
    const lit = new Set(ps.flatMap((p) => p.covers));
    const rel = new Set(ps.flatMap((p) => p.related ?? []).filter((f) => !lit.has(f)));
    return (weightOf(lit) + RETRIEVAL_TUNING.relatedShare * weightOf(rel)) / whole;
  };
  // Passage-level scoring: the fused rank says a passage matched the searches; its own coverage of the question's
  // weight (rare words count most) says whether it answers the question rather than many of its weak words.
  const candidates = [...fused.values()].sort((a, b) => b.score - a.score).slice(0, RETRIEVAL_TUNING.rerankDepth).map(passageOf);
  if (RETRIEVAL_TUNING.coverPower > 0) {
    // search.json's first result for the question as typed keeps an edge: plain search is the floor at rank 1.
    for (const p of candidates) p.score *= (RETRIEVAL_TUNING.coverFloor + coverage([p])) ** RETRIEVAL_TUNING.coverPower * (p.doc.id === searchTop ? RETRIEVAL_TUNING.searchTop : 1) * (neighbours.has(p.doc.id) ? RETRIEVAL_TUNING.neighbourBoost : 1);
    candidates.sort((a, b) => b.score - a.score);
  }
  const passages = candidates.slice(0, opts.limit ?? MAX_PASSAGES);
  return {
    query: queries[0]?.q ?? "",
    words: all,
    carried,
    passages,
    confidence: coverage(passages.slice(0, 3).filter((p, i) => i === 0 || (coverage([p]) >= RETRIEVAL_TUNING.unionMin && p.covers.length >= Math.min(RETRIEVAL_TUNING.unionWords, all.length)))),
    topConfidence: passages[0] ? coverage(passages.slice(0, 1)) : 0,
  };
}

/**
 * Whether two operations are one resource: the same tag, one tag under the other (`usergroups` and `usergroups.users`),
 * or the same path once trailing parameters are dropped (`/Accounts.json` for both Create and List).
 */
export function sameResource(a: SearchDocument, b: SearchDocument): boolean {
  const tag = (d: SearchDocument) => (d.section ?? "").toLowerCase();
  const [x, y] = [tag(a), tag(b)];
  if (x && y && (x === y || x.startsWith(`${y}.`) || y.startsWith(`${x}.`) || x.startsWith(`${y}_`) || y.startsWith(`${x}_`))) return true;
  const trunk = (d: SearchDocument) => (d.fields?.path ?? "").replace(/(?:\/\{[^}]*\})+\/?$/, "").replace(/\.json$/, "").toLowerCase();
  const [p, q] = [trunk(a), trunk(b)];
  return !!p && p === q;
}

