// `node bench/diff-fixtures.mjs` (or BENCH_ONLY=diff-fixtures npm run bench): scores the diff engine on every pair of
// test/fixtures/diff, run as fixtures.test.ts runs them (3.0 and converted 3.1 unless a case names its versions,
// both directions). Prints the figures issue 35 is judged by: verdict accuracy, breaking precision / recall,
// rule-id recall and id + level agreement (per expected change), overall and per family.
import { build } from "esbuild";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(root, "test/fixtures/diff");
const NOW = Date.parse("2026-01-01T00:00:00Z");

async function engine() {
  const out = await build({
    stdin: { contents: `export { buildReference } from "./worker/openapi/build"; export { diff, sideFromBuild } from "./worker/openapi/diff";`, resolveDir: root, loader: "ts" },
    bundle: true, platform: "node", format: "esm", write: false, logLevel: "silent",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const file = join(tmpdir(), `portico-diff-fixtures-${process.pid}.mjs`);
  writeFileSync(file, out.outputFiles[0].text);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

/** fixtures.test.ts's 3.0 → 3.1 conversion: nullable becomes a "null" member of the type array. */
function to31(value) {
  if (Array.isArray(value)) return value.map(to31);
  if (!value || typeof value !== "object") return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = to31(v);
  if (out.nullable === true && typeof out.type === "string") {
    out.type = [out.type, "null"];
    delete out.nullable;
  }
  if (typeof out.openapi === "string") out.openapi = "3.1.0";
  return out;
}

function score(runs) {
  const s = { runs: runs.length, verdict: 0, tp: 0, fp: 0, fn: 0, expected: 0, idHit: 0, idLevelHit: 0 };
  for (const { expect, actual, breaking } of runs) {
    const want = expect.some((e) => e.endsWith(" ERR"));
    if (want === breaking) s.verdict++;
    if (want && breaking) s.tp++;
    else if (!want && breaking) s.fp++;
    else if (want && !breaking) s.fn++;
    const pool = [...actual];
    const ids = actual.map((a) => a.split(" ")[0]);
    for (const e of expect) {
      s.expected++;
      if (ids.includes(e.split(" ")[0])) s.idHit++;
      const i = pool.indexOf(e);
      if (i >= 0) (s.idLevelHit++, pool.splice(i, 1));
    }
  }
  const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)} %` : "n/a");
  return `| ${s.runs} | ${pct(s.verdict, s.runs)} | ${pct(s.tp, s.tp + s.fp)} / ${pct(s.tp, s.tp + s.fn)} | ${pct(s.idHit, s.expected)} | ${pct(s.idLevelHit, s.expected)} |`;
}

export async function main() {
  const { buildReference, diff, sideFromBuild } = await engine();
  const side = (doc) => {
    const built = buildReference({ body: new TextEncoder().encode(JSON.stringify(doc)) });
    if (!built.ok) throw new Error(`fixture does not build: ${built.message}`);
    return sideFromBuild(built);
  };
  const run = (a, b) => {
    const result = diff(side(a), side(b), { now: NOW });
    return { actual: result.changes.map((c) => `${c.id} ${c.level}`), breaking: result.breaking };
  };
  const byFamily = new Map();
  for (const family of readdirSync(FIXTURES)) {
    const runs = [];
    for (const file of readdirSync(join(FIXTURES, family)).filter((f) => f.endsWith(".json"))) {
      const c = JSON.parse(readFileSync(join(FIXTURES, family, file), "utf8"));
      for (const version of c.versions ?? ["3.0", "3.1"]) {
        const convert = version === "3.1" ? to31 : (x) => x;
        runs.push({ expect: c.expect, ...run(convert(c.base), convert(c.revision)) });
        runs.push({ expect: c.reverse, ...run(convert(c.revision), convert(c.base)) });
      }
    }
    byFamily.set(family, runs);
  }
  console.log("diff fixtures: | family | runs | verdict | breaking precision / recall | rule-id recall | id + level |");
  console.log("|---|---|---|---|---|---|");
  for (const [family, runs] of byFamily) console.log(`| ${family} ${score(runs)}`);
  console.log(`| all ${score([...byFamily.values()].flat())}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
