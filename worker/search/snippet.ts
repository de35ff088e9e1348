/**
 * @module Snippets: the densest window of a document's body around the matched words, HTML-escaped, with
 * `<mark>` around each matched word. A scan for the matched surface words finds the window cheaply; only the
 * window is tokenised and stemmed to decide what to mark. Falls back to the body's opening.
 */
import { escapeHtml } from "../lib/html-escape";
import { STOPWORDS, stem } from "./analyze";
import { isVersion, tokenize } from "./tokenize";

/** Characters of body text scanned for matches, and the snippet's target length. */
const SCAN_CHARS = 10_000;
const SNIPPET_CHARS = 180;
const LEAD_CHARS = 40;

/** Words scanned for when choosing the window: the surface forms of the matched terms, lower-cased. */
export function snippetWords(words: Iterable<string>): ReadonlySet<string> {
  return new Set(words);
}

// One fixed pattern (compiled once) and a set lookup per word: a per-query alternation of the matched words
// would be compiled afresh for every query and cost milliseconds on long bodies.
const WORD = /[\p{L}\p{N}]+/gu;

/** The snippet of `body` for a query whose matched terms (stems) are `terms`; `words` from snippetWords. */
export function makeSnippet(body: string, terms: ReadonlySet<string>, words: ReadonlySet<string>): string {
  const text = body.slice(0, SCAN_CHARS);
  const starts: number[] = [];
  if (words.size) {
    WORD.lastIndex = 0;
    for (let m = WORD.exec(text); m && starts.length < 2000; m = WORD.exec(text)) if (words.has(m[0].toLowerCase())) starts.push(m.index);
  }
  let from = 0;
  if (starts.length) {
    let best = 0;
    let bestCount = 0;
    for (let i = 0, j = 0; i < starts.length; i++) {
      while (j < starts.length && starts[j] - starts[i] < SNIPPET_CHARS - LEAD_CHARS) j++;
      if (j - i > bestCount) {
        bestCount = j - i;
        best = starts[i];
      }
    }
    from = best <= LEAD_CHARS ? 0 : Math.min(best, wordStart(text, best - LEAD_CHARS));
  }
  const to = wordEnd(text, from + SNIPPET_CHARS);
  const window = text.slice(from, to);
  let out = "";
  let at = 0;
  const tokens = tokenize(window);
  // A version found whole or by a run (`2.3.0`, `2.3`) is marked as one span, its `v` included, not piece by piece.
  const versions = tokens.filter((t) => t.joined && isVersion(t.word) && terms.has(t.word)).map((t) => ({ start: /[vV]/.test(window.charAt(t.start - 1)) ? t.start - 1 : t.start, end: t.end }));
  for (const t of tokens) {
    const v = versions.find((x) => x.start <= t.start && t.end <= x.end);
    if (v && !t.joined && v.start >= at) {
      out += escapeHtml(window.slice(at, v.start)) + "<mark>" + escapeHtml(window.slice(v.start, v.end)) + "</mark>";
      at = v.end;
      continue;
    }
    if (t.joined || t.start < at || STOPWORDS.has(t.word) || !terms.has(stem(t.word))) continue;
    out += escapeHtml(window.slice(at, t.start)) + "<mark>" + escapeHtml(window.slice(t.start, t.end)) + "</mark>";
    at = t.end;
  }
  out += escapeHtml(window.slice(at));
  return ((from > 0 ? "… " : "") + out + (to < text.length ? " …" : "")).replace(/\s+/g, " ").trim();
}

function wordStart(text: string, i: number): number {
  const space = text.indexOf(" ", i);
  return space < 0 ? i : space + 1;
}

function wordEnd(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const space = text.lastIndexOf(" ", i);
  return space > i - 30 && space > 0 ? space : i;
}
