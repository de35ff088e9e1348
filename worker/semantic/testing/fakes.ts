/**
 * @module Test doubles for the two services semantic retrieval uses and tests cannot reach: Workers AI's embedding
 * model and a Vectorize index. They honour the contracts the adapter relies on, and refuse what the real services
 * refuse, so a test passing here is not passing on a laxer fake:
 *
 * - {@link FakeEmbeddingModel}: the bge-m3 input/output shape (`{text: string[] ≤ 100}` → `{shape, data}`), a
 *   deterministic bag-of-words embedding (each word, after an optional concept table standing in for what a model
 *   learns, hashed into one of the dimensions; L2-normalised), and switches to fail or hang.
 * - {@link FakeVectorize}: namespaces, upsert (≤ 1,000 vectors, ids ≤ 64 bytes, metadata ≤ 10 KiB, keys without
 *   `.`, `"` or a leading `$`), deleteByIds, and query by cosine similarity with Vectorize's filter semantics:
 *   namespace first, then an implicit AND of keys, each `$eq $ne $in $nin $lt $lte $gt $gte` (a bare value is
 *   `$eq`), on properties that have a metadata index only (others throw here, where the real service would match
 *   nothing), string values compared on their first 64 bytes, compact filter JSON under 2,048 bytes, topK ≤ 100
 *   without values or metadata (≤ 20 with).
 */
const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;

/** What one `run` call received. */
export interface EmbedCall {
  model: string;
  texts: string[];
}

/** A stand-in for the `AI` binding's text embeddings. */
export class FakeEmbeddingModel {
  readonly calls: EmbedCall[] = [];
  /** When set, `run` rejects with this error. */
  fail: Error | undefined;
  /** When true, `run` never settles. */
  hang = false;

  constructor(
    readonly model = "@cf/baai/bge-m3",
    readonly dimensions = 1024,
    /** Word → concept word: words of one concept land in the same dimension (what a real model learns). */
    readonly concepts: Record<string, string> = {},
  ) {}

  /** Number of texts embedded so far. */
  get embedded(): number {
    return this.calls.reduce((n, c) => n + c.texts.length, 0);
  }

  async run(model: string, input: { text: string[] | string; truncate_inputs?: boolean }): Promise<{ shape: number[]; data: number[][] }> {
    if (model !== this.model) throw new Error(`unknown model ${model}`);
    const texts = typeof input.text === "string" ? [input.text] : input.text;
    if (!Array.isArray(texts) || texts.length === 0 || texts.length > 100) throw new Error("text must be 1-100 strings");
    if (texts.some((t) => typeof t !== "string" || t.length === 0)) throw new Error("every text must be a non-empty string");
    this.calls.push({ model, texts: [...texts] });
    if (this.hang) return new Promise(() => undefined);
    if (this.fail) throw this.fail;
    return { shape: [texts.length, this.dimensions], data: texts.map((t) => this.embed(t)) };
  }

  /** The bag-of-words vector of `text`. */
  embed(text: string): number[] {
    const v = new Array<number>(this.dimensions).fill(0);
    for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const word = this.concepts[raw] ?? raw;
      v[dimensionOf(word, this.dimensions)] += 1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  }
}

function dimensionOf(word: string, dimensions: number): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return (h >>> 0) % dimensions;
}

type Scalar = string | number | boolean;
interface Stored {
  id: string;
  values: number[];
  namespace: string;
  metadata: Record<string, Scalar>;
}

/** An in-memory Vectorize index (V2 binding shape). */
export class FakeVectorize {
  private readonly byId = new Map<string, Stored>();
  readonly calls = { upsert: 0, deleteByIds: 0, query: 0 };
  /** Every query's options, for assertions on the filter sent. */
  readonly queries: Record<string, unknown>[] = [];
  /** When set, every call rejects with it. */
  fail: Error | undefined;

  constructor(
    readonly dimensions = 1024,
    /** Properties with a metadata index (`wrangler vectorize create-metadata-index`). */
    readonly metadataIndexes: readonly string[] = ["access", "locale", "kind", "source"],
  ) {}

  /** Stored vectors (all namespaces, or one). */
  ids(namespace?: string): string[] {
    return [...this.byId.values()].filter((v) => namespace === undefined || v.namespace === namespace).map((v) => v.id).sort();
  }

  /** A stored vector's metadata. */
  metadata(id: string): Record<string, Scalar> | undefined {
    return this.byId.get(id)?.metadata;
  }

  async upsert(vectors: { id: string; values: number[] | Float32Array | Float64Array; namespace?: string; metadata?: Record<string, unknown> }[]): Promise<{ mutationId: string }> {
    this.calls.upsert++;
    if (this.fail) throw this.fail;
    if (vectors.length === 0 || vectors.length > 1000) throw new Error("VECTOR_UPSERT_ERROR: 1-1000 vectors per upsert from a Worker");
    for (const v of vectors) {
      if (!v.id || bytes(v.id) > 64) throw new Error(`VECTOR_UPSERT_ERROR: id "${v.id}" must be 1-64 bytes`);
      if (v.values.length !== this.dimensions) throw new Error(`VECTOR_UPSERT_ERROR: ${v.values.length} dimensions, index has ${this.dimensions}`);
      if (v.namespace !== undefined && bytes(v.namespace) > 64) throw new Error("VECTOR_UPSERT_ERROR: namespace over 64 bytes");
      const metadata = v.metadata ?? {};
      if (bytes(JSON.stringify(metadata)) > 10 * 1024) throw new Error("VECTOR_UPSERT_ERROR: metadata over 10 KiB");
      for (const key of Object.keys(metadata)) if (!key || /[."]/.test(key) || key.startsWith("$")) throw new Error(`VECTOR_UPSERT_ERROR: metadata key "${key}"`);
    }
    for (const v of vectors) this.byId.set(v.id, { id: v.id, values: [...v.values], namespace: v.namespace ?? "", metadata: { ...(v.metadata as Record<string, Scalar>) } });
    return { mutationId: crypto.randomUUID() };
  }

  async deleteByIds(ids: string[]): Promise<{ mutationId: string }> {
    this.calls.deleteByIds++;
    if (this.fail) throw this.fail;
    for (const id of ids) this.byId.delete(id);
    return { mutationId: crypto.randomUUID() };
  }

  async query(vector: number[] | Float32Array, options: { topK?: number; namespace?: string; returnValues?: boolean; returnMetadata?: boolean | string; filter?: Record<string, unknown> } = {}): Promise<{ count: number; matches: { id: string; score: number; metadata?: Record<string, Scalar> }[] }> {
    this.calls.query++;
    this.queries.push({ ...options });
    if (this.fail) throw this.fail;
    if (vector.length !== this.dimensions) throw new Error("VECTOR_QUERY_ERROR: wrong dimensions");
    const withData = options.returnValues === true || (options.returnMetadata !== undefined && options.returnMetadata !== false && options.returnMetadata !== "none");
    const topK = options.topK ?? 5;
    if (topK < 1 || topK > (withData ? 20 : 100)) throw new Error(`VECTOR_QUERY_ERROR: topK ${topK} over the limit`);
    const test = options.filter ? compileFilter(options.filter, this.metadataIndexes) : () => true;
    const scored = [...this.byId.values()]
      .filter((v) => options.namespace === undefined || v.namespace === options.namespace)
      .filter((v) => test(v.metadata))
      .map((v) => ({ id: v.id, score: cosine(vector, v.values), metadata: v.metadata }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, topK);
    return { count: scored.length, matches: scored.map((m) => ({ id: m.id, score: m.score, ...(withData ? { metadata: m.metadata } : {}) })) };
  }
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** First 64 bytes of a string on a UTF-8 character boundary (what a string metadata index holds). */
function indexed(value: Scalar): Scalar {
  if (typeof value !== "string" || bytes(value) <= 64) return value;
  let out = "";
  for (const ch of value) {
    if (bytes(out + ch) > 64) break;
    out += ch;
  }
  return out;
}

const OPS = new Set(["$eq", "$ne", "$in", "$nin", "$lt", "$lte", "$gt", "$gte"]);

function compileFilter(filter: Record<string, unknown>, indexes: readonly string[]): (m: Record<string, Scalar>) => boolean {
  if (!filter || typeof filter !== "object" || Object.keys(filter).length === 0) throw new Error("VECTOR_QUERY_ERROR: filter must be a non-empty object");
  if (bytes(JSON.stringify(filter)) >= 2048) throw new Error("VECTOR_QUERY_ERROR: filter JSON must be under 2048 bytes");
  const tests: ((m: Record<string, Scalar>) => boolean)[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (!key || /["|.]/.test(key) || key.startsWith("$") || key.length > 512) throw new Error(`VECTOR_QUERY_ERROR: filter key "${key}"`);
    if (!indexes.includes(key)) throw new Error(`VECTOR_QUERY_ERROR: no metadata index on "${key}" (create-metadata-index first)`);
    const clauses: [string, unknown][] = cond !== null && typeof cond === "object" && !Array.isArray(cond) ? Object.entries(cond) : [["$eq", cond]];
    for (const [op, operand] of clauses) {
      if (!OPS.has(op)) throw new Error(`VECTOR_QUERY_ERROR: operator ${op} (no $or, $and or array operators)`);
      const list = op === "$in" || op === "$nin";
      if (list !== Array.isArray(operand)) throw new Error(`VECTOR_QUERY_ERROR: ${op} takes ${list ? "a list" : "a scalar"}`);
      tests.push((m) => {
        const has = Object.hasOwn(m, key);
        const v = has ? indexed(m[key]) : undefined;
        switch (op) {
          case "$eq": return has && v === operand;
          case "$ne": return !has || v !== operand;
          case "$in": return has && (operand as Scalar[]).includes(v as Scalar);
          case "$nin": return !has || !(operand as Scalar[]).includes(v as Scalar);
          case "$lt": return has && (v as Scalar) < (operand as Scalar);
          case "$lte": return has && (v as Scalar) <= (operand as Scalar);
          case "$gt": return has && (v as Scalar) > (operand as Scalar);
          default: return has && (v as Scalar) >= (operand as Scalar);
        }
      });
    }
  }
  return (m) => tests.every((t) => t(m));
}
