// Search engine on the dev set, in-process: bundles worker/search with esbuild, writes an adapter that follows
// ../shared/search-devset's contract (dev-set docs → SearchDocuments, as the integration would make them), and
// runs the dev set's harness with MiniSearch (the baseline) in the same run. Prints the harness's table.
// Usage: node bench/search-devset.mjs [--dump DIR] [--queries FILE] [--corpus FILE]
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const DEVSET = join(ROOT, "../shared/search-devset");
const OUT = join(ROOT, "node_modules/.cache/portico-search-bench");

/** Bundles the engine, writes the adapters, runs the harness; resolves with the harness's exit code. */
export async function main(args = process.argv.slice(2)) {
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: [join(ROOT, "worker/search/index.ts")],
    bundle: true, format: "esm", platform: "neutral", outfile: join(OUT, "engine.mjs"), logLevel: "warning",
    mainFields: ["module", "main"],
  });
  writeFileSync(join(OUT, "portico.mjs"), readFileSync(join(ROOT, "bench/search/devset-adapter.mjs"), "utf8"));
  // The baseline adapter imports `minisearch`; beside our node_modules it resolves to the installed copy.
  copyFileSync(join(DEVSET, "adapters/minisearch.mjs"), join(OUT, "minisearch.mjs"));
  const r = spawnSync(process.execPath, [join(DEVSET, "bench.mjs"), ...args, join(OUT, "minisearch.mjs"), join(OUT, "portico.mjs")], { stdio: "inherit" });
  return r.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
