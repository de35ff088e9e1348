/**
 * @module An exact nearest-neighbour table of unit vectors with Vectorize-shaped metadata filters (`$in` on string
 * fields, `$eq` by value): the embedded default's vector store. Brute force over int8 rows: a portal's few thousand
 * documents × 100 dimensions is well under a millisecond per query, and exact.
 */

/** A stored row: its id, metadata and vector (unit length). */
export interface TableRow {
  id: string;
  metadata: Record<string, string | number | boolean>;
  vector: Float32Array;
}

/** A Vectorize-style filter: an implicit AND of fields, each `{ $in: [...] }` or a value to equal. */
export type TableFilter = Record<string, unknown>;

function passes(metadata: Record<string, string | number | boolean>, filter: TableFilter | undefined): boolean {
  if (!filter) return true;
  for (const [key, cond] of Object.entries(filter)) {
    const value = metadata[key];
    if (cond && typeof cond === "object" && "$in" in cond) {
      if (!(cond as { $in: unknown[] }).$in.includes(value)) return false;
    } else if (value !== cond) return false;
  }
  return true;
}

/**
 * The `topK` rows nearest `vector` (cosine; rows and query are unit length, so the dot product) among those passing
 * `filter` and scoring at least `minScore`, best first (ties by id, so results are deterministic).
 */
export function nearest(rows: readonly TableRow[], vector: Float32Array, topK: number, filter?: TableFilter, minScore = -1): Array<{ id: string; score: number }> {
  const out: Array<{ id: string; score: number }> = [];
  for (const row of rows) {
    if (!passes(row.metadata, filter)) continue;
    let s = 0;
    const v = row.vector;
    for (let i = 0; i < v.length; i++) s += v[i] * vector[i];
    if (s >= minScore) out.push({ id: row.id, score: s });
  }
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, Math.max(0, topK));
}

/**
 * The mean of some unit vectors: averaged word vectors share a large common direction (every text of a portal is
 * "about" its domain), so rows and queries are compared after removing it (SIF's common-component removal,
 * approximated by the mean, as Arora et al. note).
 */
export function meanOf(vectors: readonly Float32Array[], dimensions: number): Float32Array {
  const mean = new Float32Array(dimensions);
  for (const v of vectors) for (let i = 0; i < dimensions; i++) mean[i] += v[i] / vectors.length;
  return mean;
}

/** `v - mean`, scaled to unit length (all zeros stay zeros). */
export function centred(v: Float32Array, mean: Float32Array): Float32Array {
  const out = new Float32Array(v.length);
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    out[i] = v[i] - mean[i];
    n += out[i] * out[i];
  }
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] /= n;
  return out;
}
