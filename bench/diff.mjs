// `BENCH_ONLY=diff npm run bench`: the diff engine over pairs of consecutive versions of real APIs.
// Pairs: GitHub Enterprise Server 3.17 → 3.18 → 3.19 → api.github.com (@octokit/openapi ships all four: the
// closest thing on disk to consecutive GitHub releases; no older api.github.com copy exists here), Docker's
// Engine API v19.03.13 → v1.41 → latest (../shared/corpus/go-swagger/testdata/canary), and GitHub "old vs new":
// api.github.com against an "old" side made from it by a realistic edit (5% of operations removed, a required
// query parameter added to every 20th, an enum value dropped from every 10th schema, a response property removed).
// Prints median / p95 / max ms per pair (build excluded, diff only, 5 runs each) and peak RSS / heap MB.
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

async function engine() {
  const out = await build({
    stdin: { contents: `export { buildReference } from "./worker/openapi/build"; export { diff, sideFromBuild } from "./worker/openapi/diff";`, resolveDir: root, loader: "ts" },
    bundle: true, platform: "node", format: "esm", write: false, logLevel: "silent",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const file = join(tmpdir(), `portico-diff-bench-${process.pid}.mjs`);
  writeFileSync(file, out.outputFiles[0].text);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

function mutate(doc) {
  const old = structuredClone(doc);
  let n = 0;
  for (const [path, item] of Object.entries(old.paths)) {
    for (const method of Object.keys(item)) {
      if (!["get", "put", "post", "delete", "patch"].includes(method)) continue;
      n++;
      // The "old" side lacks what the new one added (so new = additions) and has what the new one removed.
      if (n % 20 === 0) delete item[method];
      else if (n % 20 === 7) (item[method].parameters ??= []).push({ name: `legacy_${n}`, in: "query", required: false, schema: { type: "string" } });
    }
    if (Object.keys(item).length === 0) delete old.paths[path];
  }
  let s = 0;
  for (const schema of Object.values(old.components?.schemas ?? {})) {
    s++;
    if (s % 10 === 0 && schema.properties) {
      for (const prop of Object.values(schema.properties)) if (Array.isArray(prop.enum) && prop.enum.length > 1) { prop.enum = prop.enum.slice(0, -1); break; }
    }
    if (s % 25 === 0 && schema.properties) schema.properties[`legacy_field_${s}`] = { type: "string" };
  }
  return old;
}

export async function main() {
  const { buildReference, diff, sideFromBuild } = await engine();
  const octokit = `${root}node_modules/@octokit/openapi/generated/`;
  const canary = `${root}../shared/corpus/go-swagger/testdata/canary/`;
  const load = (file) => readFileSync(file);
  const github = load(`${octokit}api.github.com.json`);
  const pairs = [
    ["ghes-3.17 → ghes-3.18", load(`${octokit}ghes-3.17.json`), load(`${octokit}ghes-3.18.json`)],
    ["ghes-3.18 → ghes-3.19", load(`${octokit}ghes-3.18.json`), load(`${octokit}ghes-3.19.json`)],
    ["ghes-3.19 → api.github.com", load(`${octokit}ghes-3.19.json`), github],
    ["docker v19.03.13 → v1.41", load(`${canary}docker-v19.03.13/swagger.yaml`), load(`${canary}docker-v1.41/swagger.yaml`)],
    ["docker v1.41 → latest", load(`${canary}docker-v1.41/swagger.yaml`), load(`${canary}docker/swagger.json`)],
    ["GitHub old (edited) → api.github.com", Buffer.from(JSON.stringify(mutate(JSON.parse(github.toString("utf8"))))), github],
  ];
  console.log(`diff: median / p95 / max ms per pair (diff only, 5 runs), heap the diff adds${globalThis.gc ? "" : " (run with node --expose-gc for exact figures)"}, changes (ERR/WARN/INFO)`);
  const all = [];
  let peakRss = 0;
  let peakHeap = 0;
  for (const [name, a, b] of pairs) {
    const ba = buildReference({ body: a });
    const bb = buildReference({ body: b });
    if (!ba.ok || !bb.ok) {
      console.log(`  ${name}: does not build (${ba.ok ? "" : ba.message} ${bb.ok ? "" : bb.message})`);
      continue;
    }
    const times = [];
    let result;
    let growth = 0;
    for (let i = 0; i < 5; i++) {
      globalThis.gc?.();
      const before = process.memoryUsage().heapUsed;
      const t = performance.now();
      result = diff(sideFromBuild(ba), sideFromBuild(bb));
      times.push(performance.now() - t);
      const m = process.memoryUsage();
      growth = Math.max(growth, m.heapUsed - before);
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }
    times.sort((x, y) => x - y);
    all.push(...times);
    const { ERR, WARN, INFO } = result.counts;
    console.log(`  ${name.padEnd(38)} ${times[2].toFixed(0).padStart(6)} / ${times[4].toFixed(0).padStart(6)} / ${times[4].toFixed(0).padStart(6)} ms  +${(growth / 2 ** 20).toFixed(0).padStart(3)} MB heap  ${result.changes.length} changes (${ERR}/${WARN}/${INFO})${result.truncated ? " TRUNCATED" : ""}`);
  }
  all.sort((x, y) => x - y);
  const q = (p) => all[Math.min(all.length - 1, Math.floor(p * all.length))];
  console.log(`  all pairs: median ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms, max ${all[all.length - 1].toFixed(0)} ms`);
  console.log(`  peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB, peak heap ${(peakHeap / 2 ** 20).toFixed(0)} MB (both sides' builds included; goal for GitHub: ≤ 2 s, < 128 MB of diff)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
