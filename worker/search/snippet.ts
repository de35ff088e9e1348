/**
 * @module Snippets: the densest window of a document's body around the matched terms, HTML-escaped, with
 * `<mark>` around each matched word. Falls back to the body's opening when nothing in it matched.
 */
import { escapeHtml } from "../content/escape-html";
import { STOPWORDS, stem } from "./analyze";
import { tokenize } from "./tokenize";

/** Characters of body text scanned for matches, and the snippet's target length. */
const SCAN_CHARS = 20_000;
const SNIPPET_CHARS = 180;

/** The snippet of `body` for a query whose matched terms are `terms` (stems). */
export function makeSnippet(body: string, terms: ReadonlySet<string>): string {
  const text = body.slice(0, SCAN_CHARS);
  const hits = tokenize(text).filter((t) => !t.joined && !STOPWORDS.has(t.word) && terms.has(stem(t.word)));
  if (!hits.length) return escapeHtml(clip(text, 0));
  // The window starting at a hit that covers the most hits within SNIPPET_CHARS.
  let bestStart = 0;
  let bestCount = 0;
  for (let i = 0, j = 0; i < hits.length; i++) {
    while (j < hits.length && hits[j].end - hits[i].start <= SNIPPET_CHARS) j++;
    if (j - i > bestCount) {
      bestCount = j - i;
      bestStart = i;
    }
  }
  const from = Math.min(hits[bestStart].start, lineOrWordStart(text, hits[bestStart].start - 40));
  const to = Math.min(text.length, from + SNIPPET_CHARS);
  let out = from > 0 ? "… " : "";
  let at = from;
  for (const h of hits) {
    if (h.start < from || h.end > to) continue;
    if (h.start < at) continue;
    out += escapeHtml(text.slice(at, h.start)) + "<mark>" + escapeHtml(text.slice(h.start, h.end)) + "</mark>";
    at = h.end;
  }
  const end = wordEnd(text, to);
  out += escapeHtml(text.slice(at, Math.max(at, end)));
  return (out + (end < text.length ? " …" : "")).replace(/\s+/g, " ");
}

function clip(text: string, from: number): string {
  const end = wordEnd(text, from + SNIPPET_CHARS);
  return text.slice(from, end).replace(/\s+/g, " ") + (end < text.length ? " …" : "");
}

function lineOrWordStart(text: string, i: number): number {
  if (i <= 0) return 0;
  const space = text.indexOf(" ", i);
  return space < 0 ? i : space + 1;
}

function wordEnd(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const space = text.lastIndexOf(" ", i);
  return space > i - 30 && space > 0 ? space : i;
}
