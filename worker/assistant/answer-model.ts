/**
 * @module The `AnswerModel` port: what an answerer is given (the question, the thread so far, numbered passages the
 * reader may open) and what it gives back (Markdown citing passages as `[n]`, or a decline). Two adapters: the
 * embedded extractive answerer (embedded.ts, the default) and Workers AI (workers-ai.ts, production). Citation
 * integrity is checked here, for every adapter: an `[n]` naming no passage given is never shown to a reader.
 */
import type { Passage } from "./retrieve";

/** A model's line in the registry (models.ts) and in every answer: what runs and where. */
export interface ModelInfo {
  id: string;
  provider: string;
  region: string;
}

/** What an answerer reads for one turn. Passages are numbered from 1 in the order given. */
export interface AnswerInput {
  question: string;
  /** Earlier turns of the thread, oldest first (question and answer text only; already re-checked for access). */
  history: Array<{ question: string; answer: string }>;
  passages: Passage[];
  /** Retrieval's confidence (0-1, retrieve.ts): the share of the question's weight the passages answer. */
  confidence: number;
  topConfidence: number;
  /** Fills `{{name}}` placeholders for the reader (their variables, else the release's defaults). */
  fill: (text: string) => string;
}

/** An answer: Markdown with `[n]` citations (1-based into the passages), or declined (`answered: false`). */
export interface AnswerOutput {
  answered: boolean;
  markdown: string;
  /** Passage numbers the answer rests on, most first (each appears as `[n]` in the Markdown). */
  cited: number[];
  model: ModelInfo;
}

/** The port. `signal` aborts a slow answer; adapters never throw for a model's bad output (they decline or repair). */
export interface AnswerModel {
  readonly info: ModelInfo;
  answer(input: AnswerInput, signal?: AbortSignal): Promise<AnswerOutput>;
}

/** The decline every adapter uses (the contract's wording: the docs do not cover it). */
export const DECLINE_TEXT = "The docs don't cover this. The closest pages are listed as search results below; try rephrasing with the name of an operation or a guide.";

/** Citations `[n]` (also `[1, 2]` and `[1][2]`) in Markdown, in order of first appearance. */
export function citationsIn(markdown: string): number[] {
  const out: number[] = [];
  for (const m of markdown.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g)) {
    for (const n of m[1]!.split(",").map((x) => Number(x.trim()))) if (!out.includes(n)) out.push(n);
  }
  return out;
}

/**
 * Checks that every `[n]` names a passage given (1..count). Out-of-range citations are removed; when nothing valid
 * is left cited, or more than half of the citations were invalid, the answer is not repaired (`ok: false`) and the
 * caller replaces it with the embedded answer. Returns the repaired Markdown and its valid citations in order.
 */
export function checkCitations(markdown: string, count: number): { ok: boolean; markdown: string; cited: number[] } {
  const all = citationsIn(markdown);
  const valid = all.filter((n) => Number.isInteger(n) && n >= 1 && n <= count);
  const invalid = all.length - valid.length;
  if (!valid.length || invalid * 2 > all.length) return { ok: false, markdown, cited: valid };
  const repaired = markdown.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g, (_m, list: string) => {
    const keep = list.split(",").map((x) => Number(x.trim())).filter((n) => n >= 1 && n <= count);
    return keep.length ? `[${keep.join(", ")}]` : "";
  });
  return { ok: true, markdown: repaired.replace(/ +([.,;:])/g, "$1"), cited: valid };
}
