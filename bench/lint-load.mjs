// Shared by the lint benchmarks: bundles worker/openapi/lint (TypeScript) with esbuild into a temporary ES
// module and imports it, so the scripts run on plain Node. Also picks the corpus files the parity run uses.
import { build } from "esbuild";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("..", import.meta.url).pathname;
export const CORPUS = join(ROOT, "../shared/corpus");

/** Imports the lint engine's public API (index.ts), bundled; `root`: another checkout's (to compare two builds). */
export async function loadLint(root = ROOT) {
  const dir = mkdtempSync(join(tmpdir(), "portico-lint-"));
  const outfile = join(dir, "lint.mjs");
  await build({
    entryPoints: [join(root, "worker/openapi/lint/index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    outfile,
    logLevel: "error",
  });
  return import(outfile);
}

/**
 * `count` single-file definitions from the corpus MANIFEST, spread over versions and formats, deterministic:
 * roots without external references, at most `maxBytes`.
 */
export function pickCorpus(count = 50, maxBytes = 1_300_000) {
  const rows = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1).map((line) => {
    const c = line.split("\t");
    return { path: c[0], bytes: Number(c[4]), format: c[6], version: c[7], multi: c[11], kind: c[12], features: c[13] };
  });
  const eligible = rows.filter((r) => r.kind === "root" && r.multi === "no" && !/extRefs/.test(r.features) && r.bytes <= maxBytes && !r.path.startsWith("oai-spec-v3.2-dev/tests/"));
  const family = (v) => (v.startsWith("swagger") ? "2.0" : v.replace(/^openapi (\d\.\d).*$/, "$1"));
  const scale = count / 50;
  const quota = { "2.0": Math.round(10 * scale), "3.0": Math.round(22 * scale), "3.1": Math.round(10 * scale), "3.2": Math.round(8 * scale) };
  const picked = [];
  for (const [fam, n] of Object.entries(quota)) {
    const pool = eligible.filter((r) => family(r.version) === fam).sort((a, b) => a.path.localeCompare(b.path));
    const step = pool.length / Math.min(n, pool.length);
    for (let i = 0; i < Math.min(n, pool.length); i++) picked.push(pool[Math.floor(i * step)]);
  }
  return picked.slice(0, count).map((r) => ({ ...r, family: family(r.version), abs: join(CORPUS, r.path) }));
}
