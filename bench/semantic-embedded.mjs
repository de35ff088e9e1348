// The embedded semantic experiment (worker/semantic/word-vectors.ts: SIF-averaged static word vectors, docs/search.md
// "The embedded experiment") in-process: what fusing its matches into search does to the search dev sets 1-4 (success@1
// and @3, each query lexical only and fused as routes/search.ts fuses them), the semantic ranking's own success@3,
// and its costs: embedding every document (the publish step it adds) and one query (embedding + exact nearest
// neighbours), on the dev set's index and with GitHub's REST description (1,223 operations) beside it.
// Quality figures are the point; times are from a shared machine (the load average is printed beside them).
// K (default 50) and MIN (least centred cosine, default none) bound the semantic matches fused, as topK and
// SEMANTIC_MIN_SCORE do in production. Needs bench/.cache/word-vectors.json (scripts/semantic/build-word-vectors.mjs).
//   [K=50] [MIN=0.75] node bench/semantic-embedded.mjs [--github]
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { devsetDocuments, readJsonl } from "./lib/devset-documents.mjs";
import { documentVectors, loadWordVectors } from "./lib/word-vectors.mjs";
const ROOT = new URL("..", import.meta.url).pathname;
const { buildSearchIndex, loadSearchIndex } = await tsImport(join(ROOT, "worker/search/index.ts"), import.meta.url);
const model = await loadWordVectors();
const SETS = [
  ["1", join(ROOT, "../shared/search-devset/corpus.jsonl"), join(ROOT, "../shared/search-devset/queries.jsonl")],
  ["2", join(ROOT, "bench/search-devset2/corpus.jsonl")],
  ["3", join(ROOT, "bench/search-devset3/corpus.jsonl")],
  ["4", join(ROOT, "bench/search-devset4/corpus.jsonl")],
];
const pc = (a, b) => (100 * a / (b || 1)).toFixed(1);
const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");
for (const [name, corpusPath, queriesPath] of SETS) {
  const defsPath = join(dirname(corpusPath), "definitions.json");
  const definitions = name !== "1" && existsSync(defsPath) ? JSON.parse(readFileSync(defsPath, "utf8")) : undefined;
  const queries = readJsonl(queriesPath ?? join(dirname(corpusPath), "queries.jsonl"));
  const { all, idOf } = await devsetDocuments(readJsonl(corpusPath), { definitions, github: name === "1" && process.argv.includes("--github") });
  const vt = await documentVectors(model, all);
  const index = loadSearchIndex(buildSearchIndex(all, { vectors: vt.vectors }));
  const byId = new Map(all.map((d) => [d.id, d]));
  const at = { lex1: 0, lex3: 0, fus1: 0, fus3: 0, vec3: 0 };
  const qms = [];
  for (const q of queries) {
    const t = performance.now();
    const semantic = vt.query(q.q, Number(process.env.K ?? 50), Number(process.env.MIN ?? -1));
    qms.push(performance.now() - t);
    const rank = (res) => [...new Set(res.map((h) => idOf(h.doc)).filter(Boolean))].findIndex((id) => q.relevant.includes(id)) + 1;
    const lex = rank(index.search(q.q, { limit: 10, canRead: () => true }).results);
    const fus = rank(index.search(q.q, { limit: 10, canRead: () => true, semantic }).results);
    const vec = semantic.slice(0, 3).map((v) => idOf(byId.get(v.slice(2)))).some((id) => q.relevant.includes(id));
    at.lex1 += lex === 1; at.lex3 += lex >= 1 && lex <= 3; at.fus1 += fus === 1; at.fus3 += fus >= 1 && fus <= 3; at.vec3 += vec;
  }
  qms.sort((a, b) => a - b);
  const n = queries.length;
  console.log(`set ${name}: ${n} queries, ${all.length} documents | s@1 lexical ${pc(at.lex1, n)} fused ${pc(at.fus1, n)} | s@3 lexical ${pc(at.lex3, n)} fused ${pc(at.fus3, n)} | semantic alone s@3 ${pc(at.vec3, n)}`);
  console.log(`  embedding ${all.length} documents ${vt.embedMs.toFixed(0)} ms; a query (embed + nearest of ${vt.size}) p50 ${qms[n >> 1].toFixed(2)} ms p95 ${qms[Math.floor(n * 0.95)].toFixed(2)} ms (load average ${load()})`);
}
