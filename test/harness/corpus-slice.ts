/**
 * @module The CI slice of the corpus sweeps (worker/openapi/corpus-sweep.test.ts in-process, test/corpus/sweep-*.test.ts
 * over HTTP): every multi-file root (the archive paths) and every fourth other root in manifest order (all
 * versions, JSON and YAML, a spread of sources), about a quarter of the 568. The whole corpus is a benchmark
 * (`BENCH_ONLY=corpus-sweep npm run bench`, which sets `CORPUS_SWEEP=all`).
 */

/** Every how many single-file roots the slice keeps one. */
export const SWEEP_STRIDE = 4;

/** Whether root number `index` (0-based, among the manifest's roots) is swept; `all` sweeps every one. */
export function inSweepSlice(index: number, multiFile: boolean, all: boolean): boolean {
  return all || multiFile || index % SWEEP_STRIDE === 0;
}
