// A publish's search step on GitHub's REST description (13 MB, 1,223 operations), in-process: the search documents
// read from each slice as publish-definition.ts reads them (operationDocument with the header's tags, kept as UTF-8
// JSON parts by DocumentSetWriter), then the API's index built from those parts as publish/search-index.ts builds
// it (eachPartDocument → SearchIndexBuilder → UTF-8 blocks). KV writes left out. Prints the least of several runs
// of each (CPU in one Node, no wrangler), and SHA-256 digests of the document parts and of the index bytes: for
// GitHub, and for the search dev set's corpus (../shared/search-devset/corpus.jsonl, 1,672 documents as they are)
// with GitHub's documents beside it, so two builds can be checked to write the same bytes.
// A/B: SEARCH_STEP_ROOTS=/tmp/base,. bundles each checkout's worker/ (a base checked out with
// `git archive <commit> worker | tar -x -C /tmp/base` and node_modules linked beside it), then alternates children
// A, B, A, B ... (SEARCH_STEP_ROUNDS, default 3; each child runs SEARCH_STEP_RUNS, default 3, times) and prints the
// least per root, and whether the digests agree. SEARCH_STEP_PROF=dir writes a CPU profile per child (--cpu-prof).
// Usage: node bench/search-step.mjs [file]
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const FILE = process.argv[2] ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const DEVSET = join(ROOT, "../shared/search-devset/corpus.jsonl");
const ROOTS = (process.env.SEARCH_STEP_ROOTS ?? ROOT).split(",").map((r) => resolve(ROOT, r));
const ROUNDS = Number(process.env.SEARCH_STEP_ROUNDS ?? 3);
const RUNS = Number(process.env.SEARCH_STEP_RUNS ?? 3);
const PROF = process.env.SEARCH_STEP_PROF;

const CHILD = `
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { buildReference, operationDocument, SearchIndexBuilder, DocumentSetWriter, eachPartDocument } from "./entry.mjs";
const [file, devset, runs] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const digest = (blocks) => { const h = createHash("sha256"); for (const b of blocks) h.update(b); return h.digest("hex").slice(0, 16); };
const outcome = buildReference({ body: new Uint8Array(readFileSync(file)) });
if (!outcome.ok) { console.log(JSON.stringify({ error: outcome.message })); process.exit(1); }
const src = { api: "github", version: "1", layout: "page-per-operation", locale: "en", tags: outcome.header.tags };
const slugs = outcome.operations.map((o) => o.slug);
const indexOf = (parts) => {
  const builder = new SearchIndexBuilder();
  for (let i = 0; i < parts.length; i++) for (const d of eachPartDocument(parts[i])) builder.add(d);
  return builder.finish();
};
const figures = { sliceMs: [], docsMs: [], indexMs: [] };
let partsDigest, indexDigest, parts;
for (let run = 0; run < runs; run++) {
  let t = performance.now();
  const slices = slugs.map((s) => outcome.slice(s));
  figures.sliceMs.push(performance.now() - t);
  t = performance.now();
  const writer = new DocumentSetWriter();
  for (const s of slices) writer.add(operationDocument(s, src));
  parts = writer.finish();
  figures.docsMs.push(performance.now() - t);
  t = performance.now();
  const blocks = indexOf(parts);
  figures.indexMs.push(performance.now() - t);
  const pd = digest(parts), id = digest(blocks);
  if (partsDigest !== undefined && (pd !== partsDigest || id !== indexDigest)) { console.log(JSON.stringify({ error: "runs differ" })); process.exit(1); }
  partsDigest = pd; indexDigest = id;
}
// The dev set's documents as they are (kinds, CJK, long bodies), GitHub's beside them: one index.
const devDocs = readFileSync(devset, "utf8").trim().split("\\n").map((l) => ({ url: "/x", locale: "en", labels: [], ...JSON.parse(l) }));
const dev = new SearchIndexBuilder();
for (const d of devDocs) dev.add(d);
for (const p of parts) for (const d of eachPartDocument(p)) dev.add(d);
const devsetDigest = digest(dev.finish());
console.log(JSON.stringify({ ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.min(...v)])), partsDigest, indexDigest, devsetDigest, documents: slugs.length, partsBytes: parts.reduce((n, p) => n + p.byteLength, 0) }));
`;

async function bundle(root) {
  const dir = mkdtempSync(join(tmpdir(), "pubfast2-search-step-"));
  const from = (p) => JSON.stringify(join(root, p));
  writeFileSync(
    join(dir, "entry.ts"),
    `export { buildReference } from ${from("worker/openapi/build.ts")};\nexport { operationDocument } from ${from("worker/search/documents.ts")};\nexport { SearchIndexBuilder } from ${from("worker/search/index.ts")};\nexport { DocumentSetWriter, eachPartDocument } from ${from("worker/search/document-set.ts")};\n`,
  );
  await build({ entryPoints: [join(dir, "entry.ts")], bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], conditions: ["import", "default"], outfile: join(dir, "entry.mjs"), logLevel: "warning" });
  writeFileSync(join(dir, "child.mjs"), CHILD);
  return dir;
}

const dirs = await Promise.all(ROOTS.map(bundle));
const results = ROOTS.map(() => []);
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (let r = 0; r < ROOTS.length; r++) {
      const args = [...(PROF ? ["--cpu-prof", `--cpu-prof-dir=${PROF}`, `--cpu-prof-name=search-step-${r}-${round}.cpuprofile`] : []), join(dirs[r], "child.mjs"), FILE, DEVSET, String(RUNS)];
      const out = spawnSync(process.execPath, args, { encoding: "utf8" });
      const line = JSON.parse((out.stdout || "{}").trim().split("\n").pop() || "{}");
      if (out.status !== 0 || line.error) throw new Error(`${ROOTS[r]}: ${line.error ?? out.stderr}`);
      results[r].push(line);
    }
  }
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
const least = (xs, k) => Math.round(Math.min(...xs.map((x) => x[k])));
for (let r = 0; r < ROOTS.length; r++) {
  const xs = results[r];
  const x = xs[0];
  console.log(
    `search-step ${ROOTS[r]}: slices ${least(xs, "sliceMs")} ms, documents ${least(xs, "docsMs")} ms (${x.documents}, ${(x.partsBytes / 1048576).toFixed(2)} MB of parts), index ${least(xs, "indexMs")} ms (least of ${xs.length * RUNS}); digests parts ${x.partsDigest} index ${x.indexDigest} devset+github ${x.devsetDigest}`,
  );
}
if (ROOTS.length > 1) {
  const keys = ["partsDigest", "indexDigest", "devsetDigest"];
  const same = results.every((xs) => xs.every((x) => keys.every((k) => x[k] === results[0][0][k])));
  console.log(`search-step: outputs ${same ? "identical" : "DIFFER"} across roots`);
  if (!same) process.exitCode = 1;
}
