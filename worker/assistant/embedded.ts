/**
 * @module The embedded extractive answerer (the `AnswerModel` default: local runs, tests, self-hosting; no network).
 * It answers from the passages alone: for each passage it cites, the sentences that carry most of the question's
 * weight (the rare words count most), an operation's method and path and the parameters the question names, joined
 * into short Markdown with `[n]` after each part. It declines below a calibrated confidence (retrieve.ts measures
 * how much of the question the passages answer; the thresholds are fitted on the dev set, docs/assistant.md).
 */
import { DECLINE_TEXT, type AnswerInput, type AnswerModel, type AnswerOutput, type ModelInfo } from "./answer-model";
import { stemsOf, type Passage } from "./retrieve";
import { stem } from "../search/analyze";

/** The embedded answerer's line in the registry and in answers. */
export const EMBEDDED_MODEL: ModelInfo = { id: "portico-extractive-1", provider: "Portico (embedded, in the Worker)", region: "the Worker serving the request; nothing leaves it" };

/**
 * Confidence thresholds (0-1): the share of the question's weight the first three passages must answer together,
 * and the first one alone. Fitted on the dev set's answerable and unanswerable questions (docs/assistant.md).
 */
export const ANSWER_TUNING = { minConfidence: 0.5, minTopConfidence: 0.2, citeRatio: 0.25, maxCited: 5, sentencesFirst: 2, sentenceChars: 320 };

/** The words of a question as stems with a weight each (its own copy of retrieval's weights). */
function questionStems(input: AnswerInput): Map<string, number> {
  const out = new Map<string, number>();
  const words = new Set(input.question.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  for (const p of input.passages) for (const c of p.covers) for (const w of c.split(/[^\p{L}\p{N}]+/u)) if (w) words.add(w);
  for (const w of words) out.set(stem(w), Math.max(out.get(stem(w)) ?? 0, 1));
  return out;
}

/** Sentences (and short lines such as list items) of a passage body, bounded. */
export function sentencesOf(body: string, max = 60): string[] {
  const out: string[] = [];
  for (const line of body.split(/\n+/)) {
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z`"(])/)) {
      const t = s.trim();
      if (t.length >= 12) out.push(t);
      if (out.length >= max) return out;
    }
  }
  return out;
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1).replace(/\s+\S*$/, "")}…`;
}

// Markdown-significant characters in extracted text are escaped (the text is quoted, not formatted).
function plain(s: string): string {
  return s.replace(/([\\`*_[\]<>#|])/g, "\\$1");
}

/** The best `count` sentences of a passage for the question, in their own order. */
function bestSentences(p: Passage, weights: Map<string, number>, count: number): string[] {
  // A section's text starts with its heading, which the answer already shows as the title; fragments (a parameter's
  // "Shipment identifier.") say too little to quote.
  const heading = p.doc.title.trim();
  const body = heading && p.doc.body.startsWith(heading) ? p.doc.body.slice(heading.length) : p.doc.body;
  const scored = sentencesOf(body).filter((s) => s.split(/\s+/).length >= 4).map((s, i) => {
    let score = 0;
    for (const st of stemsOf(s)) score += weights.get(st) ?? 0;
    return { s, i, score: score / Math.sqrt(1 + s.length / 200) };
  });
  return scored.filter((x) => x.score > 0).sort((a, b) => b.score - a.score).slice(0, count).sort((a, b) => a.i - b.i).map((x) => x.s);
}

/** The parameters (and request fields) of an operation passage the question names. */
function namedParameters(p: Passage, stems: Map<string, number>): string[] {
  const names = [...(p.doc.fields?.parameters ?? []), ...(p.doc.fields?.properties ?? [])];
  return [...new Set(names)].filter((n) => n.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).some((w) => w.length > 2 && stems.has(stem(w)))).slice(0, 6);
}

/** Which passages an answer cites: the first, then those close enough in score that answer some of the question. */
export function citedPassages(passages: Passage[]): number[] {
  const top = passages[0]?.score ?? 0;
  const out: number[] = [];
  passages.forEach((p, i) => {
    if (out.length >= ANSWER_TUNING.maxCited) return;
    if (i === 0 || (p.score >= top * ANSWER_TUNING.citeRatio && p.covers.length > 0)) out.push(i + 1);
  });
  return out;
}

/** Whether retrieval found enough to answer (the calibrated decline). */
export function confident(input: Pick<AnswerInput, "passages" | "confidence" | "topConfidence">): boolean {
  return input.passages.length > 0 && input.confidence >= ANSWER_TUNING.minConfidence && input.topConfidence >= ANSWER_TUNING.minTopConfidence;
}

/** The extractive answer for `input` (declined when retrieval is not confident). Deterministic. */
export function extractiveAnswer(input: AnswerInput): AnswerOutput {
  if (!confident(input)) return { answered: false, markdown: DECLINE_TEXT, cited: [], model: EMBEDDED_MODEL };
  const weights = questionStems(input);
  const cited = citedPassages(input.passages);
  const parts: string[] = [];
  cited.forEach((n, k) => {
    const p = input.passages[n - 1]!;
    const d = p.doc;
    const title = plain(input.fill(d.title));
    const where = d.kind === "operation" && d.fields?.method && d.fields.path ? ` (\`${d.fields.method.toUpperCase()} ${d.fields.path.replace(/`/g, "")}\`)` : d.section && d.kind === "guide" ? ` (${plain(input.fill(d.section))})` : "";
    const sentences = bestSentences(p, weights, k === 0 ? ANSWER_TUNING.sentencesFirst : 1).map((s) => plain(clip(input.fill(s), ANSWER_TUNING.sentenceChars)));
    const params = d.kind === "operation" ? namedParameters(p, weights) : [];
    const paramLine = params.length ? ` Parameters: ${params.map((x) => `\`${x.replace(/`/g, "")}\``).join(", ")}.` : "";
    if (k === 0) parts.push(`**${title}**${where}: ${sentences.join(" ") || title}${paramLine} [${n}]`);
    else parts.push(`- **${title}**${where}: ${sentences[0] ?? ""}${paramLine} [${n}]`.replace(/: +\[/, " ["));
  });
  const markdown = parts.length > 1 ? `${parts[0]}\n\nSee also:\n\n${parts.slice(1).join("\n")}` : parts[0]!;
  return { answered: true, markdown, cited, model: EMBEDDED_MODEL };
}

/** The embedded adapter of the port. */
export const embeddedAnswerModel: AnswerModel = {
  info: EMBEDDED_MODEL,
  answer: async (input) => extractiveAnswer(input),
};
