/**
 * @module Question understanding for the assistant (platform-free): the words of a reader's question that name
 * what is wanted (question words, filler and pleasantries dropped; identifiers such as `chat.postMessage` kept
 * whole), the clauses of a question that asks several things, whether a turn is a follow-up that leans on the
 * previous one ("and how do I undo that?"), and the requests the assistant declines outright (attempts to change
 * its instructions). Reader words are mapped to the docs' words later, by the search engine's own expansion
 * (synonyms, the thesaurus, the API verb pairs, typos): there is one vocabulary machinery, not two.
 */
import { STOPWORDS, stem } from "../search/analyze";

/** Longest question answered, in characters after trimming (the contract's 400 `invalid-question` beyond). */
export const MAX_QUESTION_CHARS = 2000;
/** Words handed to one search: the engine reads at most 12 (worker/search/query.ts MAX_QUERY_WORDS). */
export const MAX_QUERY_WORDS = 12;

// Words that frame a question or a request rather than name its subject. Kept small and general: API vocabulary
// (get, list, create, api, endpoint) stays, because it is what operation titles are made of.
const FILLER = new Set(
  ("please thanks thank hi hello hey ok okay actually really even still already maybe perhaps anyway way possible " +
    "able want wants wanted need needs needed like would could should might must let lets know tell show give " +
    "help explain describe wondering wonder trying try tried going one ones something anything thing things " +
    "sure exactly quick quickly simply simple basically there here now later again instead same idea else " +
    "yes no not don't doesn't didn't can't cannot won't i'm i've i'd it's that's what's there's we're you're " +
    "lot lots much many whole every kind certain particular specific bit").split(" "),
);

/** A word as a reader typed it, and its folded form (what search and comparisons use). */
export interface QuestionWord {
  text: string;
  folded: string;
}

/** Folds case and strips a possessive `'s` and surrounding punctuation; identifiers keep `.`, `_`, `-`, `/` inside. */
export function foldWord(raw: string): string {
  return raw
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/^[^\p{L}\p{N}{]+|[^\p{L}\p{N}}]+$/gu, "")
    .replace(/'s$/, "");
}

/** The content words of `text` in order, duplicates dropped. */
export function contentWords(text: string): QuestionWord[] {
  const out: QuestionWord[] = [];
  const seen = new Set<string>();
  for (const raw of text.split(/[\s,;:!?()"“”[\]<>]+/)) {
    const folded = foldWord(raw);
    if (!folded || folded.length > 64) continue;
    const bare = folded.replace(/'.*$/, "");
    if (STOPWORDS.has(folded) || STOPWORDS.has(bare) || FILLER.has(folded) || FILLER.has(bare)) continue;
    if (!/[\p{L}\p{N}]/u.test(folded)) continue;
    if (seen.has(folded)) continue;
    seen.add(folded);
    out.push({ text: raw.replace(/^[^\p{L}\p{N}{]+|[^\p{L}\p{N}}]+$/gu, ""), folded });
  }
  return out;
}


/**
 * The clauses of a question that asks several things ("find a number, buy it, and then send an SMS from it"): split
 * at sentence ends, `;`, and at ", and" / "and then" / "and how" between requests. One clause when there is no split.
 */
export function clauses(text: string): string[] {
  return text
    .split(/[.?!;]\s+|,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?=(?:then|how|what|which|where|when|can|is|are|do|does|will|later|finally|also)\b)|\s+then\s+/i)
    .map((s) => s.trim())
    .filter((s) => contentWords(s).length > 0);
}

// Instructions aimed at the assistant itself: roles, system prompts, modes, secrets. Declined like off-topic
// requests (no retrieval runs, nothing is cited). Patterns name the move, not the wording of one attack.
const INJECTION: RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.]{0,40}\b(?:instructions?|rules?|prompts?|guidelines?|polic(?:y|ies)|restrictions?|directions?)\b/i,
  /\b(?:system|hidden|internal|initial|original)\s+(?:prompt|instructions?|message|rules?|notes?)\b/i,
  /\b(?:you are now|act as|pretend (?:to be|you are)|from now on you|developer mode|jailbreak|dan mode|roleplay as)\b/i,
  /\bsystem\s+override\b/i,
  /\b(?:print|reveal|output|show|paste|repeat|dump|leak)\b[^.]{0,40}\b(?:every|all|your|any)\b[^.]{0,30}\b(?:api keys?|tokens?|credentials?|secrets?|passwords?)\b[^.]{0,30}\b(?:you have|you know|have access|you can)/i,
];

/** Whether the question tries to change the assistant's instructions or extract its secrets. */
export function isInjection(text: string): boolean {
  return INJECTION.some((re) => re.test(text));
}

// Words that point back at the previous turn's subject.
const ANAPHORA = /\b(?:it|its|that|this|those|these|them|they|one|ones|same|there|him|her|such)\b/i;
const CONTINUATION = /^(?:and|also|but|so|ok(?:ay)?|what about|how about|then|now|great|thanks|found one|i changed my mind)\b/i;

/** Whether a turn leans on the previous one: it starts as a continuation, refers back, or names little itself. */
export function isFollowUp(text: string): boolean {
  const t = text.trim();
  return CONTINUATION.test(t) || ANAPHORA.test(t) || contentWords(t).length <= 2;
}

// Action words: a follow-up brings its own ("and how do I delete it?"), so the previous turn's action is not carried,
// only its subject. The verbs of API titles and the phrasal verbs readers type.
const ACTIONS = new Set(
  ("get retrieve fetch read show view describe lookup list enumerate browse create add new make insert register provision " +
    "update modify edit change patch delete remove destroy cancel abort stop terminate start run execute launch trigger " +
    "search find query filter send post publish submit enable disable attach detach assign set spin up take use call " +
    "upload download install configure check manage open close move apply").split(" "),
);

// "posting", "created": the action in any inflection.
const ACTION_STEMS = new Set([...ACTIONS].map(stem));

/** What a previous turn leaves for the next one: its (rewritten) question and the titles it cited first. */
export interface PreviousTurn {
  question: string;
  /** Titles of the sources the turn cited, best first (only ones the reader may still open). */
  titles: string[];
}

/**
 * The words a follow-up carries over from the previous turn (its subject): the previous question's content words that
 * the follow-up does not already have, then its first source's title words, action words left out, at most `limit`. Empty when the turn is not a follow-up.
 */
export function carriedWords(text: string, previous: PreviousTurn | undefined, limit = 5): string[] {
  if (!previous || !isFollowUp(text)) return [];
  const own = new Set(contentWords(text).map((w) => w.folded));
  // "undo that?" points back at the previous action itself (a bare that/this); "delete it" at its subject only.
  const keepActions = /\b(?:that|this)\s*(?:[?.!,]|$)/i.test(text);
  const out: string[] = [];
  for (const w of [...contentWords(previous.question), ...contentWords(previous.titles[0] ?? "")]) {
    if (own.has(w.folded) || out.includes(w.folded) || (!keepActions && ACTION_STEMS.has(stem(w.folded)))) continue;
    out.push(w.folded);
    if (out.length >= limit) break;
  }
  return out;
}
