/**
 * @module Fusion of the lexical ranking with the semantic one by reciprocal rank fusion (RRF): a document's fused
 * value is the sum over the lists it appears in of 1 / (k + rank). Ranks, not scores, are fused because BM25 and
 * cosine similarity have unrelated scales. Lexical exact hits (every query word matched as typed, in the title,
 * section or identifiers) at the head of the lexical list keep their places ahead of everything fused: a reader who
 * typed an operation's name gets that operation first, whatever the vectors say.
 *
 * Both inputs hold only documents the reader may open (the caller filters before fusing), so fusion can neither add
 * a document nor count one the reader may not see.
 */
import { RRF_K } from "./semantic";

/** A lexical hit as fusion needs it: document index, score, and whether it is an exact head match. */
export interface FusionInput {
  doc: number;
  score: number;
  exact: boolean;
}

/** A fused hit: document index and a score on the lexical scale (see {@link fuse}). */
export interface Fused {
  doc: number;
  score: number;
}

/**
 * Fuses `lexical` (best first) with `semantic` (document indexes, best first, duplicates ignored). The result holds
 * every document of either list once: first the leading run of exact lexical hits in lexical order, then the rest
 * by RRF (ties: lexical rank, then semantic rank). Scores are RRF values scaled so that a document first in the
 * lexical list and absent from the semantic one keeps the top lexical score (organisation search interleaves
 * portals by score), made non-increasing down the list.
 */
export function fuse(lexical: readonly FusionInput[], semantic: readonly number[], k: number = RRF_K): Fused[] {
  const value = new Map<number, number>();
  const lexRank = new Map<number, number>();
  const semRank = new Map<number, number>();
  lexical.forEach((h, i) => {
    if (lexRank.has(h.doc)) return;
    lexRank.set(h.doc, i);
    value.set(h.doc, 1 / (k + i + 1));
  });
  let j = 0;
  for (const doc of semantic) {
    if (semRank.has(doc)) continue;
    semRank.set(doc, j);
    value.set(doc, (value.get(doc) ?? 0) + 1 / (k + j + 1));
    j++;
  }
  let pinned = 0;
  while (pinned < lexical.length && lexical[pinned].exact) pinned++;
  const head = lexical.slice(0, pinned).map((h) => h.doc);
  const headSet = new Set(head);
  const rest = [...value.keys()].filter((d) => !headSet.has(d));
  const rank = (m: Map<number, number>, d: number) => m.get(d) ?? Number.MAX_SAFE_INTEGER;
  rest.sort((a, b) => value.get(b)! - value.get(a)! || rank(lexRank, a) - rank(lexRank, b) || rank(semRank, a) - rank(semRank, b));
  const scale = (lexical[0]?.score ?? 1) * (k + 1);
  const out: Fused[] = [...head, ...rest].map((doc) => ({ doc, score: value.get(doc)! * scale }));
  // Pinned hits keep at least their lexical score; every score is at least the next one's, so the order holds for
  // anyone sorting by score.
  for (let i = 0; i < pinned; i++) out[i].score = Math.max(out[i].score, lexical[i].score);
  for (let i = out.length - 2; i >= 0; i--) out[i].score = Math.max(out[i].score, out[i + 1].score);
  return out;
}
