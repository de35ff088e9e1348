/**
 * @module Synonyms mined from the portal's own content at build time. An operation names its action twice: in
 * its operationId (`droplets_destroy`, `DeleteParticipant`, `stars_add`) and in its summary ("Delete a
 * Droplet", "Kick a participant", "Save an item for later"). When the two verbs differ, and the same pair
 * recurs across operations, the portal uses them interchangeably and a reader may type either.
 */
import { STOPWORDS, stem } from "./analyze";
import { tokenize } from "./tokenize";
import type { SearchDocument } from "./types";

/** A pair must recur this often to count; one-off pairs are mostly noise ("list" vs "retrieve" once). */
const MIN_PAIR_COUNT = 2;
/** Weight (percent) of a mined relation, by how often it recurred. */
const weightFor = (count: number) => (count >= 4 ? 75 : count >= 3 ? 65 : 55);

const words = (text: string) => tokenize(text, 64).filter((t) => !t.joined && !STOPWORDS.has(t.word) && /^\p{L}+$/u.test(t.word)).map((t) => t.word);

/** The summary of an operation: its title unless the title is just the operationId, else the body's first sentence. */
function summaryOf(d: SearchDocument, opId: string): string {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  if (norm(d.title) !== norm(opId)) return d.title;
  return d.body.split(/(?<=[.!?])\s|\n/)[0] ?? "";
}

/**
 * Mines relations from operations added one at a time (the index builder streams documents): keeps per operation
 * only its candidate verbs and its summary's stems.
 */
export class RelatedMiner {
  private readonly summaryVerbs = new Set<string>();
  private readonly seen: Array<{ candidates: Set<string>; verb: string; summary: string[] }> = [];

  /** Reads one document (only operations with an operationId count). */
  add(d: SearchDocument): void {
    const opId = d.fields?.operationId;
    if (d.kind !== "operation" || !opId) return;
    const opWords = words(opId).map(stem);
    const segments = opId.split(/[_.\/\-]+/).filter(Boolean);
    const candidates = new Set([words(segments[0] ?? "")[0], words(segments[segments.length - 1] ?? "")[0]].filter(Boolean).map((w) => stem(w!)));
    const summary = words(summaryOf(d, opId)).map(stem);
    const verb = summary[0];
    if (!verb) return;
    this.summaryVerbs.add(verb);
    if (!opWords.includes(verb)) this.seen.push({ candidates, verb, summary });
  }

  /**
   * Mined relations, by stem: `stem → [termIndex, weight%, ...]`, symmetric, restricted to terms `termIndex`
   * knows (the index's term → position). Deterministic for a given document order.
   */
  related(termIndex: (term: string) => number | undefined): Record<string, number[]> {
    const pairs = new Map<string, number>();
    // Only operationId words that some summary also starts with are verbs; the rest are resources (`genai`, `apps`).
    for (const { candidates, verb, summary } of this.seen) {
      for (const x of candidates) {
        if (x === verb || summary.includes(x) || !this.summaryVerbs.has(x)) continue;
        const key = x < verb ? `${x} ${verb}` : `${verb} ${x}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
    const related: Record<string, number[]> = {};
    for (const [key, count] of [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (count < MIN_PAIR_COUNT) continue;
      const [a, b] = key.split(" ");
      const ta = termIndex(a);
      const tb = termIndex(b);
      if (ta === undefined || tb === undefined) continue;
      (related[a] ??= []).push(tb, weightFor(count));
      (related[b] ??= []).push(ta, weightFor(count));
    }
    return related;
  }
}

/**
 * Mined relations of `docs`, by stem: `stem → [termIndex, weight%, ...]`, symmetric, restricted to terms of
 * `termIndex` (the index's term → position map). Deterministic for a given document list.
 */
export function mineRelated(docs: SearchDocument[], termIndex: Map<string, number>): Record<string, number[]> {
  const miner = new RelatedMiner();
  for (const d of docs) miner.add(d);
  return miner.related((t) => termIndex.get(t));
}
