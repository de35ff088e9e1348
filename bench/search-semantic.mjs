// Semantic retrieval's local costs on GitHub's REST description (1,223 operations): what a first publish embeds
// (texts, Workers AI calls, an estimate of tokens and dollars), what a republish embeds after a version bump or a
// few edits, the id hashing the publisher does, the index's growth from its vector table, and what fusing 50
// semantic matches adds to a query in the engine. No model runs here: relevance is not measured (docs/search.md).
// Usage: node bench/search-semantic.mjs [file]
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { githubDocs } from "./search/github-docs.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const FILE = process.argv[2] ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const OUT = join(ROOT, "node_modules/.cache/portico-search-bench");
/** bge-m3's price in the Workers AI catalogue (USD per million input tokens) when this was written. */
const USD_PER_M_TOKENS = 0.0118;
const QUERIES = ["get repository content", "list pull requests", "create an issue comment", "delete a repo", "merge pull request", "how do i fork a repository", "remove label from issue", "webhook deliveries", "org secrets", "lisr pul reqests"];

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
const ms = (x) => x.toFixed(2);

export async function main() {
  mkdirSync(OUT, { recursive: true });
  const entry = [
    `export { buildSearchIndex, loadSearchIndex } from "./worker/search/index.ts";`,
    `export { semanticItem } from "./worker/publish/search-semantic.ts";`,
  ].join("\n");
  await build({ stdin: { contents: entry, resolveDir: ROOT, loader: "ts" }, bundle: true, format: "esm", platform: "node", outfile: join(OUT, "semantic.mjs"), logLevel: "warning", mainFields: ["module", "main"] });
  const { buildSearchIndex, loadSearchIndex, semanticItem } = await import(pathToFileURL(join(OUT, "semantic.mjs")).href);
  const MODEL = "@cf/baai/bge-m3";

  const docs = githubDocs(FILE);
  let t = performance.now();
  const items = await Promise.all(docs.map((d) => semanticItem(MODEL, 1, d)));
  const hashMs = performance.now() - t;
  const chars = items.reduce((n, i) => n + i.text.length, 0);
  const tokens = Math.round(chars / 4);
  console.log(`search-semantic: ${docs.length} documents; first publish embeds ${items.length} texts in ${Math.ceil(items.length / 100)} calls of <= 100; ${chars} characters (~${tokens} tokens at 4 characters a token, ~$${((tokens * USD_PER_M_TOKENS) / 1e6).toFixed(4)} at bge-m3's listed $${USD_PER_M_TOKENS}/M); stored ${items.length} x 1024 = ${items.length * 1024} dimensions`);
  console.log(`search-semantic: vector ids (SHA-256 of model, metadata, text) for all documents: ${ms(hashMs)} ms`);

  const live = new Set(items.map((i) => i.id));
  const bumped = docs.map((d) => ({ ...d, version: "9.9.9", url: d.url.replace(/\/[^/]+\/([^/]+)$/, "/9.9.9/$1") }));
  let changed = 0;
  for (const d of bumped) if (!live.has((await semanticItem(MODEL, 1, d)).id)) changed++;
  console.log(`search-semantic: republish as a new version label (same texts): ${changed} embeddings`);
  const edited = docs.map((d, i) => (i % 100 === 0 ? { ...d, body: `${d.body} Edited.` } : d));
  changed = 0;
  for (const d of edited) if (!live.has((await semanticItem(MODEL, 1, d)).id)) changed++;
  const n = docs.filter((_d, i) => i % 100 === 0).length;
  console.log(`search-semantic: republish with every 100th body edited at its end (${n} documents): ${changed} embeddings and as many stale vectors deleted after the flip (an edit past a body's first 1,500 characters changes no vector)`);

  const plain = buildSearchIndex(docs);
  const vectors = new Map(docs.map((d, i) => [d.id, items[i].id]));
  const withVectors = buildSearchIndex(docs, { vectors });
  console.log(`search-semantic: index ${plain.length} bytes without vectors, ${withVectors.length} with the vector table (+${(((withVectors.length - plain.length) / plain.length) * 100).toFixed(1)} %)`);

  const index = loadSearchIndex(withVectors);
  const ids = items.map((i) => i.id);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const lexical = [], fused = [], scope = [];
  for (const q of QUERIES) index.search(q, { canRead: () => true, semantic: ids.slice(0, 50) });
  for (let round = 0; round < 5; round++) {
    for (const q of QUERIES) {
      const semantic = Array.from({ length: 50 }, () => ids[Math.floor(random() * ids.length)]);
      let t0 = performance.now();
      index.search(q, { canRead: () => true, limit: 10 });
      lexical.push(performance.now() - t0);
      t0 = performance.now();
      index.search(q, { canRead: () => true, limit: 10, semantic });
      fused.push(performance.now() - t0);
      t0 = performance.now();
      index.semanticScope({ canRead: () => true });
      scope.push(performance.now() - t0);
    }
  }
  console.log(`search-semantic: engine per query, lexical p50 ${ms(pct(lexical, 50))} / p95 ${ms(pct(lexical, 95))} ms; with 50 semantic ids fused p50 ${ms(pct(fused, 50))} / p95 ${ms(pct(fused, 95))} ms; reader scope p50 ${ms(pct(scope, 50))} / p95 ${ms(pct(scope, 95))} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
