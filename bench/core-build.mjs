// Publish core on GitHub's REST description (13 MB JSON): buildReference, the weight guard, and the model serialised
// as the publisher stores it (store/models.ts putSlices: slice chunks + each $ref target once in target chunks; KV
// writes left out), run in a child Node under --max-old-space-size=128. Prints build time, store time, stored bytes,
// what the slices would weigh as copies (model v2), heap at each phase (sampled between steps: the build itself is
// synchronous), peak RSS, and the smallest old-space cap (MB) it still completes in.
// CORE_SEARCH=1 adds what a publish also holds: the API's search documents and its index (worker/search).
// Usage: node bench/core-build.mjs [file|graph|graph-beta]   (bundles the core with esbuild first; `graph` and
// `graph-beta` are Microsoft Graph's descriptions, fetched by bench/lib/huge-files.mjs)
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hugeFiles } from "./lib/huge-files.mjs";
import { liftSizeLimit } from "./lib/lift-size-limit.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const ARG = process.argv[2] ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const FILE = ARG === "graph" || ARG === "graph-beta" ? hugeFiles()[ARG] : ARG;

const CHILD = `
import { readFileSync } from "node:fs";
import { buildReference, putSlices, operationDocument, SearchIndexBuilder, DocumentSetWriter, eachPartDocument } from "./core.mjs";
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
let peak = 0, peakTotal = 0;
// Heap, and heap + ArrayBuffers (the body, the documents' and the index's UTF-8 bytes: an isolate counts both).
const heap = () => { const m = process.memoryUsage(); peak = Math.max(peak, m.heapUsed); peakTotal = Math.max(peakTotal, m.heapUsed + m.arrayBuffers); return mb(m.heapUsed); };
const phases = {};
phases.start = heap();
const body = new Uint8Array(readFileSync(process.argv[2]));
phases.bodyRead = heap();
const t0 = performance.now();
const outcome = buildReference({ body });
const buildMs = performance.now() - t0;
phases.built = heap();
if (!outcome.ok) { console.log(JSON.stringify({ error: outcome })); process.exit(1); }
const t2 = performance.now();
const weight = outcome.weigh();
const weighMs = performance.now() - t2;
phases.weighed = heap();
// As the publisher stores it, KV writes left out (write = false): the chunk texts are still built and joined.
const t1 = performance.now();
// CORE_SEARCH=1: also the search documents read from each slice (kept as UTF-8 JSON parts) and the API's index
// built from them part by part, as a publish does (publish-definition.ts, publish/search-index.ts).
const search = process.env.CORE_SEARCH === "1";
const docs = new DocumentSetWriter();
const src = { api: "api", version: "1", layout: "page-per-operation", locale: "en" };
const stored = await putSlices(null, "m/bench", outcome.operations.map((o) => o.slug), (slug) => { const s = outcome.slice(slug); if (search) docs.add(operationDocument(s, src)); heap(); return s; }, false);
const storeMs = performance.now() - t1;
phases.stored = heap();
let searchMs = 0, indexMB = 0, documentsMB = 0;
if (search) {
  const parts = docs.finish();
  documentsMB = mb(parts.reduce((n, p) => n + p.byteLength, 0));
  phases.documents = heap();
  const t3 = performance.now();
  const builder = new SearchIndexBuilder();
  // Each part released once read, as publish/search-index.ts does (the set was cached to KV first).
  for (let i = 0; i < parts.length; i++) { const part = parts[i]; parts[i] = undefined; for (const d of eachPartDocument(part)) builder.add(d); heap(); }
  phases.documentsIndexed = heap();
  const blocks = builder.finish();
  indexMB = mb(blocks.reduce((n, b) => n + b.byteLength, 0));
  searchMs = Math.round(performance.now() - t3);
  phases.searchIndexBuilt = heap();
}
// Model v2 for comparison: every slice with its targets copied (measured one at a time).
let copiedChars = 0, largest = 0;
if (process.env.CORE_COPIED !== "0") for (const op of outcome.operations) {
  const n = JSON.stringify(outcome.slice(op.slug)).length;
  copiedChars += n; largest = Math.max(largest, n);
}
globalThis.gc?.();
phases.retainedAfterGc = heap();
const m = process.memoryUsage();
console.log(JSON.stringify({
  operations: outcome.operations.length, counts: outcome.header.counts, issues: outcome.issues.length,
  buildMs: Math.round(buildMs), weighMs: Math.round(weighMs), storeMs: Math.round(storeMs), weight,
  storedMB: mb(stored.sliceChars + stored.targetChars), sliceMB: mb(stored.sliceChars), targetMB: mb(stored.targetChars), chunks: stored.chunks, targets: stored.targets,
  copiedMB: mb(copiedChars), largestCopiedSliceKB: Math.round(largest / 1024), searchMs, indexMB, documentsMB,
  heapMB: phases, peakSampledHeapMB: mb(peak), peakSampledTotalMB: mb(peakTotal), externalMB: mb(m.external), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}));
`;

/**
 * Bundles the core once and returns `run(file, capMB)`: the child's figures (buildMs, storeMs, storedMB, peakSampledHeapMB,
 * ...) under `--max-old-space-size=capMB`, or `{ error }` when it fails there. Call `dispose()` when done.
 */
export async function coreRunner({ maxDefinitionBytes } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "portico-core-bench-"));
  writeFileSync(join(dir, "entry.ts"), `export { buildReference } from ${JSON.stringify(join(ROOT, "worker/openapi/build.ts"))};\nexport { putSlices } from ${JSON.stringify(join(ROOT, "worker/store/models.ts"))};\nexport { operationDocument } from ${JSON.stringify(join(ROOT, "worker/search/documents.ts"))};\nexport { SearchIndexBuilder } from ${JSON.stringify(join(ROOT, "worker/search/index.ts"))};\nexport { DocumentSetWriter, eachPartDocument } from ${JSON.stringify(join(ROOT, "worker/search/document-set.ts"))};\n`);
  await build({
    entryPoints: [join(dir, "entry.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "default"],
    outfile: join(dir, "core.mjs"),
    // Graph beta (47 MB) is over the 25 MiB a definition may be today (its upload is issue 12's streamed path): this
    // bench-only bundle lifts the check so the model's memory and time can be measured in-process.
    plugins: maxDefinitionBytes ? [liftSizeLimit(maxDefinitionBytes)] : [],
    logLevel: "warning",
  });
  writeFileSync(join(dir, "child.mjs"), CHILD);
  return {
    run(file, capMB, env = {}) {
      const r = spawnSync(process.execPath, [`--max-old-space-size=${capMB}`, "--expose-gc", join(dir, "child.mjs"), file], { encoding: "utf8", env: { ...process.env, ...env } });
      if (r.status !== 0) return { error: `${r.stdout}${r.stderr}`.trim().split("\n").slice(-3).join(" ") };
      return JSON.parse(r.stdout.trim().split("\n").pop());
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runner = await coreRunner(ARG === "graph-beta" ? { maxDefinitionBytes: 64 * 1024 * 1024 } : {});
  try {
    // 128 MB is the isolate's; a file whose parse alone does not fit (Graph beta: JSON.parse of 47 MB) is then
    // measured under the smallest larger cap that completes, and says so.
    let figures;
    let cap = 128;
    for (cap of [128, 192, 256, 384, 512]) {
      figures = runner.run(FILE, cap);
      if (!figures.error) break;
      console.log(`core-build: FAILED under --max-old-space-size=${cap}: ${figures.error.slice(0, 200)}`);
    }
    if (figures.error) process.exit(1);
    let smallest = cap;
    // The smallest cap is searched without the v2 comparison (it holds nothing, but costs a full pass).
    for (const lower of [112, 96, 80, 64, 56, 48, 40, 32].filter((c) => c < cap)) {
      if (runner.run(FILE, lower, { CORE_COPIED: "0" }).error) break;
      smallest = lower;
    }
    const w = figures.weight;
    console.log(`core-build: ${FILE.split("/").pop()}`);
    console.log(`  operations ${figures.operations} (counts ${JSON.stringify(figures.counts)}), issues ${figures.issues}`);
    console.log(`  buildReference ${figures.buildMs} ms; weigh ${figures.weighMs} ms (${(w.chars / 1048576).toFixed(1)} M chars estimated, over: ${w.over}, max ${w.maxRefs} refs and ${Math.round(w.maxSliceTargetChars / 1024)} K chars of targets on one page)`);
    console.log(`  stored model (v3) ${figures.storeMs} ms: ${figures.storedMB} MB = slices ${figures.sliceMB} MB + targets ${figures.targetMB} MB (${figures.targets} targets once), ${figures.chunks} KV values; as copies (v2) ${figures.copiedMB} MB, largest slice ${figures.largestCopiedSliceKB} KB`);
    if (figures.searchMs) console.log(`  search (CORE_SEARCH=1): documents read while storing (${figures.documentsMB} MB as UTF-8 JSON parts), index built ${figures.searchMs} ms, ${figures.indexMB} MB`);
    console.log(`  heap MB by phase ${JSON.stringify(figures.heapMB)}; peak sampled heap ${figures.peakSampledHeapMB} MB (with ArrayBuffers: body, documents, index bytes ${figures.peakSampledTotalMB} MB); external (body) ${figures.externalMB} MB; max RSS ${figures.maxRssMB} MB`);
    console.log(`  completes under --max-old-space-size=128: ${cap === 128 ? "yes" : `no (figures above under ${cap})`}; smallest cap tried that still completes: ${smallest} MB`);
  } finally {
    runner.dispose();
  }
}
