// Publish core on GitHub's REST description (13 MB JSON): buildReference plus every slice serialised, run in a
// child Node under --max-old-space-size=128. Prints build time, slice time, heap at each phase (sampled between
// steps: the build itself is synchronous), peak RSS, and the smallest old-space cap (MB) it still completes in.
// Usage: node bench/core-build.mjs [file]   (bundles worker/openapi/build.ts with esbuild first)
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const FILE = process.argv[2] ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

const CHILD = `
import { readFileSync } from "node:fs";
import { buildReference } from "./core.mjs";
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
let peak = 0;
const heap = () => { const h = process.memoryUsage().heapUsed; peak = Math.max(peak, h); return mb(h); };
const phases = {};
phases.start = heap();
const body = new Uint8Array(readFileSync(process.argv[2]));
phases.bodyRead = heap();
const t0 = performance.now();
const outcome = buildReference({ body });
const buildMs = performance.now() - t0;
phases.built = heap();
if (!outcome.ok) { console.log(JSON.stringify({ error: outcome })); process.exit(1); }
let sliceBytes = 0, largest = 0;
const t1 = performance.now();
for (const op of outcome.operations) {
  const n = JSON.stringify(outcome.slice(op.slug)).length;
  sliceBytes += n; largest = Math.max(largest, n);
  heap();
}
const sliceMs = performance.now() - t1;
phases.slicesDone = heap();
globalThis.gc?.();
phases.retainedAfterGc = heap();
const m = process.memoryUsage();
console.log(JSON.stringify({
  operations: outcome.operations.length, counts: outcome.header.counts, issues: outcome.issues.length,
  buildMs: Math.round(buildMs), sliceMs: Math.round(sliceMs), sliceMB: mb(sliceBytes), largestSliceKB: Math.round(largest / 1024),
  heapMB: phases, peakSampledHeapMB: mb(peak), externalMB: mb(m.external), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}));
`;

/**
 * Bundles the core once and returns `run(file, capMB)`: the child's figures (buildMs, sliceMs, peakSampledHeapMB,
 * ...) under `--max-old-space-size=capMB`, or `{ error }` when it fails there. Call `dispose()` when done.
 */
export async function coreRunner() {
  const dir = mkdtempSync(join(tmpdir(), "portico-core-bench-"));
  await build({
    entryPoints: [join(ROOT, "worker/openapi/build.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "default"],
    outfile: join(dir, "core.mjs"),
    logLevel: "warning",
  });
  writeFileSync(join(dir, "child.mjs"), CHILD);
  return {
    run(file, capMB) {
      const r = spawnSync(process.execPath, [`--max-old-space-size=${capMB}`, "--expose-gc", join(dir, "child.mjs"), file], { encoding: "utf8" });
      if (r.status !== 0) return { error: `${r.stdout}${r.stderr}`.trim().split("\n").slice(-3).join(" ") };
      return JSON.parse(r.stdout.trim().split("\n").pop());
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runner = await coreRunner();
  try {
    const figures = runner.run(FILE, 128);
    if (figures.error) {
      console.log(`core-build: FAILED under --max-old-space-size=128\n${figures.error}`);
      process.exit(1);
    }
    let smallest = 128;
    for (const cap of [112, 96, 80, 64, 56, 48, 40, 32]) {
      if (runner.run(FILE, cap).error) break;
      smallest = cap;
    }
    console.log(`core-build: ${FILE.split("/").pop()}`);
    console.log(`  operations ${figures.operations} (counts ${JSON.stringify(figures.counts)}), issues ${figures.issues}`);
    console.log(`  buildReference ${figures.buildMs} ms; all ${figures.operations} slices built + JSON.stringify'd ${figures.sliceMs} ms (${figures.sliceMB} MB total, largest ${figures.largestSliceKB} KB)`);
    console.log(`  heap MB by phase ${JSON.stringify(figures.heapMB)}; peak sampled heap ${figures.peakSampledHeapMB} MB; external (body) ${figures.externalMB} MB; max RSS ${figures.maxRssMB} MB`);
    console.log(`  completes under --max-old-space-size=128: yes; smallest cap tried that still completes: ${smallest} MB`);
  } finally {
    runner.dispose();
  }
}
