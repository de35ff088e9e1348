/**
 * @module Query text → the words to look up: length caps, question templates ("how do i", "is there an api to",
 * "how does X work") and stopwords removed, and whether the last word is still being typed (prefix).
 */
import { STOPWORDS } from "./analyze";
import { isVersion, isWholeIdentifier, tokenize } from "./tokenize";

/** Characters of a query that are read; the rest is ignored (a 10 KB query is not a query). */
export const MAX_QUERY_CHARS = 256;
/** Words of a query that are looked up. */
export const MAX_QUERY_WORDS = 12;

/** A parsed query: folded words (identifier parts split), and whether the last one may be a prefix. */
export interface ParsedQuery {
  words: string[];
  /** Content words of the question's closing frame ("work" in "how does X work"): may help, never required. */
  optional: string[];
  /** True when the query does not end in whitespace or punctuation: the last word is being typed. */
  lastIsPrefix: boolean;
  /**
   * Identifiers typed as identifiers (`ParcelLabelVoidedEvent`, `parcel_label.voided`) and version numbers (`v2.3.0`):
   * each one's whole form (see tokenize.ts), the indexes in `words` of its parts, and its spelling as typed (for
   * suggestions).
   */
  idents: Array<{ whole: string; parts: number[]; typed: string }>;
  /**
   * A stopword being typed as the last word ("list order it", "check in"): not a word to look up, but it may be the
   * start of one ("items", "into"), so expand.ts looks it up as that alone (its completions, never itself), and
   * drops it when nothing completes it.
   */
  typing?: string;
  /**
   * Runs of 2-{@link MAX_RUN} adjacent typed words, stopwords included, that may be one identifier of the portal's
   * ("created at min" → `created_at_min`, "has recycle bin" → `has_recycle_bin`): the run's whole form (parts joined by
   * `_`, as tokenize.ts keeps identifiers), the indexes in `words` of its parts that are words (a stopword is not one),
   * the positions of its other (stopword) parts among the query's tokens (`stops`: the same stopword in two runs has
   * one position), and whether it ends with the stopword being typed (`typing`). Only runs with at least one word.
   * Runs of the words alone, stopwords left out, follow ("delete the droplet" → `delete_droplet`).
   */
  runs: Array<{ whole: string; parts: number[]; stops: Array<{ at: number; word: string }>; typing: boolean }>;
}

/** Most adjacent query words read as one identifier ("request download shares" → `request_download_shares`). */
export const MAX_RUN = 6;

// Phrases that frame a question rather than name what is wanted; removed wherever they start the query.
const TEMPLATES: RegExp[] = [
  /^(?:please\s+)?(?:how|where|when)\s+(?:do|can|could|would|should|might|may)\s+(?:i|we|you|one)\s+(?:go about\s+)?/i,
  /^(?:is|are)\s+there\s+(?:an?\s+|any\s+)?(?:api|apis|endpoint|endpoints|way|method|call|operation)s?\s+(?:to|for|that|which)?\s*/i,
  /^(?:which|what)\s+(?:api|endpoint|method|call|operation|request)s?\s+(?:lets|let|allows|allow|helps|help|can|do|should)\s+(?:me|us|you|i)?\s*(?:to\s+)?/i,
  /^(?:what|who)\s+(?:is|are|does|do)\s+(?:an?\s+|the\s+)?/i,
  /^(?:tell me about|explain|describe|show me|i\s+(?:want|need|would like)\s+to|help me(?:\s+with)?|how to|can i|(?:read|learn|find out|know)(?:\s+more)?\s+about|more about)\s+/i,
  /^(?:an?\s+|the\s+)?(?:guide|guides|tips|tutorial|tutorials|docs|documentation|overview|intro|introduction|info|information|help|examples?)\s+(?:to|on|for|about|of|with)\s+/i,
  /^how\s+(?:does|do|is|are)\s+/i,
];
const TRAILERS = [
  /\s+(?:work|works|working|mean|means|function|do)\s*$/i,
  /\s+(?:through|via|using|with|in|from|by)\s+(?:the\s+|an?\s+|your\s+)?(?:rest\s+)?(?:api|apis|endpoint|endpoints)\s*$/i,
];

/** Parses `raw` (any string; never throws). Stopwords are kept only when nothing else is left. */
export function parseQuery(raw: string): ParsedQuery {
  const text = raw.slice(0, MAX_QUERY_CHARS);
  const lastIsPrefix = /[\p{L}\p{N}]$/u.test(text);
  let framed = text.replace(/[?!¿¡]+/g, " ").replace(/\s+/g, " ").trim();
  let stripped = false;
  const frame: string[] = [];
  const strip = (pattern: RegExp, keep = false) => {
    const m = pattern.exec(framed);
    if (!m || !framed.replace(pattern, "").trim()) return;
    if (keep) frame.push(m[0]);
    framed = framed.replace(pattern, " ").trim();
    stripped = true;
  };
  for (const t of TEMPLATES) strip(t);
  // "work" in "how does X work" may be in the title ("How does JSONPath Work?"): kept as an optional word.
  if (stripped) TRAILERS.forEach((t) => strip(t, true));
  // Templates match case-insensitively on the original text, so camel-case identifiers still split.
  const tokens = tokenize(framed, MAX_QUERY_WORDS * 4);
  const all = tokens.filter((t) => !t.joined);
  const content = all.filter((t) => !STOPWORDS.has(t.word));
  const kept = (content.length ? content : all).slice(0, MAX_QUERY_WORDS);
  const words = kept.map((t) => t.word);
  const idents: ParsedQuery["idents"] = [];
  // A version's shorter runs (`2.3` in `2.3.0`) are what documents are found by, not what the reader typed.
  const versions = tokens.filter((t) => t.joined && isVersion(t.word));
  for (const t of tokens) {
    if (!t.joined || !(isWholeIdentifier(t.word) || (isVersion(t.word) && !versions.some((v) => v.end - v.start > t.end - t.start && v.start <= t.start && v.end >= t.end)))) continue;
    const parts = kept.flatMap((k, i) => (k.start >= t.start && k.end <= t.end ? [i] : []));
    if (parts.length) idents.push({ whole: t.word, parts, typed: framed.slice(t.start, t.end) });
  }
  const optional = tokenize(frame.join(" ")).map((t) => t.word).filter((w) => !STOPWORDS.has(w) && !words.includes(w));
  const last = all[all.length - 1];
  const typing = lastIsPrefix && !stripped && content.length && last && STOPWORDS.has(last.word) && kept.length < MAX_QUERY_WORDS ? last.word : undefined;
  // Runs over the words as typed, stopwords included: identifiers have stopword parts (`createdAt`, `hasRecycleBin`,
  // `countryOfOrigin`), and dropping them first joined words that are not adjacent ("created at min" → created_min).
  const runs: ParsedQuery["runs"] = [];
  const index = new Map(kept.map((k, i) => [k, i]));
  // Up to the first content word past the cap: stopwords after the last kept word may end a run ("last modified at").
  const source = content.length ? content : all;
  const cut = source.length > kept.length ? source[kept.length].start : Infinity;
  const upTo = all.filter((t) => t.start < cut);
  for (let i = 0; i < upTo.length; i++) {
    for (let j = i + 2; j <= Math.min(upTo.length, i + MAX_RUN); j++) {
      const span = upTo.slice(i, j);
      const parts = span.flatMap((t) => (index.has(t) ? [index.get(t)!] : []));
      const stops = span.flatMap((t) => (!index.has(t) && !(typing && t === last) ? [{ at: upTo.indexOf(t), word: t.word }] : []));
      if (parts.length) runs.push({ whole: span.map((t) => t.word).join("_"), parts, stops, typing: !!typing && span[span.length - 1] === last });
    }
  }
  // And over the words alone, as before: an identifier may leave out the stopwords the reader typed ("delete the
  // droplet" → `delete_droplet`).
  const seen = new Set(runs.map((r) => r.whole));
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 2; j <= Math.min(words.length, i + MAX_RUN); j++) {
      const whole = words.slice(i, j).join("_");
      if (!seen.has(whole)) runs.push({ whole, parts: Array.from({ length: j - i }, (_, k) => i + k), stops: [], typing: false });
    }
  }
  return { words, optional: optional.slice(0, MAX_QUERY_WORDS), lastIsPrefix: lastIsPrefix && !stripped && !typing, idents, runs, ...(typing ? { typing } : {}) };
}
