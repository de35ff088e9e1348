// The whole-corpus sweeps (every root of ../shared/corpus, 568): in-process through buildReference
// (worker/openapi/corpus-sweep.test.ts) and over HTTP in workerd, four shards (test/corpus/sweep-*.test.ts). The test
// suite runs a slice of them (test/harness/corpus-slice.ts); this runs them whole with CORPUS_SWEEP=all and
// prints each file's time and what it reports (built, refused). A failing root fails the run.
import { spawnSync } from "node:child_process";

const FILES = ["worker/openapi/corpus-sweep.test.ts", "test/corpus/sweep-0.test.ts", "test/corpus/sweep-1.test.ts", "test/corpus/sweep-2.test.ts", "test/corpus/sweep-3.test.ts"];

export async function main() {
  console.log("== corpus-sweep: every root of the corpus, in-process and over HTTP (CORPUS_SWEEP=all) ==");
  const root = new URL("..", import.meta.url).pathname;
  const t0 = performance.now();
  const run = spawnSync("npx", ["vitest", "run", "--reporter=verbose", ...FILES], {
    cwd: root,
    env: { ...process.env, CORPUS_SWEEP: "all" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${run.stdout}\n${run.stderr}`;
  for (const line of out.split("\n")) {
    if (/corpus sweep:|shard \d:|✓|×|Test Files|Tests /.test(line)) console.log(`  ${line.replace(/\x1b\[[0-9;]*m/g, "").trim().slice(0, 300)}`);
  }
  console.log(`  corpus-sweep took ${((performance.now() - t0) / 1000).toFixed(0)} s (exit ${run.status})`);
  if (run.status !== 0) throw new Error("corpus sweep failed: run the files above with CORPUS_SWEEP=all for the details");
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
