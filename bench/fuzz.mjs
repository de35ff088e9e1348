// Long fuzz run (issue 14): mutations of every single-file corpus root (test/fuzz/mutations.ts at LONG_SCALE,
// cases from test/fuzz/cases.ts with a fixed seed) posted to a `wrangler dev` server. Per case: the upload's
// status and time, for accepted ones the index and one operation page, then /healthz. Prints counts (cases,
// 201/200/4xx/5xx, timeouts, crashes), p50/p95/max upload time, the worst case, and whether a demo reference
// published before the run is byte-identical after it. Failures go to $FUZZ_LOG (JSON lines) to pin them.
// Env: FUZZ_CASES (10000), FUZZ_SEED (14), FUZZ_MINUTES (stop starting cases after this long), FUZZ_CONCURRENCY (2).
// Replay (to rerun slow or failing cases in minutes; the case list is the same FUZZ_SEED/FUZZ_CASES list, filtered,
// so a case keeps its number and its mutations): FUZZ_ONLY=<mutation>[,<mutation>] keeps the cases whose mutations
// include one of them (e.g. FUZZ_ONLY=many-paths); FUZZ_CASE_SEEDS=a,b,c keeps the cases with those case seeds (the
// "seed" in the log's `what`). Both may be combined (a case must pass both); FUZZ_CASES then bounds the list the
// filter runs over, and at most FUZZ_LIMIT (all) of the kept cases run.
// FUZZ_PORTAL_CASES=N: each worker posts to a fresh portal after every N cases (default: one portal per worker for
// the whole run). A publish rebuilds its portal's whole search index (every live API's documents), so a portal that
// has collected hundreds of fuzzed APIs (thousands of 9,000-operation ones in a long run) makes every later
// publish slow whatever its own definition is; N bounds that, N=1 measures each definition alone.
//   e.g. FUZZ_CASES=10000 FUZZ_CASE_SEEDS=1036935477 BENCH_ONLY=fuzz npm run bench
//        FUZZ_CASES=10000 FUZZ_ONLY=many-paths FUZZ_LIMIT=300 BENCH_ONLY=fuzz npm run bench
import { build } from "esbuild";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = join(ROOT, "../shared/corpus");
const CASES = Number(process.env.FUZZ_CASES ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 14);
const MINUTES = Number(process.env.FUZZ_MINUTES ?? Infinity);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 2);
const ONLY = (process.env.FUZZ_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const CASE_SEEDS = new Set((process.env.FUZZ_CASE_SEEDS ?? "").split(",").map((s) => s.trim()).filter(Boolean).map(Number));
const LIMIT = Number(process.env.FUZZ_LIMIT ?? Infinity);
const PORTAL_CASES = Number(process.env.FUZZ_PORTAL_CASES ?? Infinity);
const LOG = process.env.FUZZ_LOG ?? join(tmpdir(), `portico-fuzz-${Date.now()}.jsonl`);
/** An answer slower than this is "slow" (the issue's bound); no answer within HANG_MS is a timeout. */
const SLOW_MS = 10_000;
const HANG_MS = 60_000;

async function loadFuzzModules() {
  const dir = mkdtempSync(join(tmpdir(), "portico-fuzz-"));
  const entry = join(dir, "entry.ts");
  const out = join(dir, "fuzz.mjs");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(entry, `export * from ${JSON.stringify(join(ROOT, "test/fuzz/mutations.ts"))};\nexport * from ${JSON.stringify(join(ROOT, "test/fuzz/cases.ts"))};\n`);
  await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], conditions: ["import", "default"], outfile: out, logLevel: "warning" });
  const mod = await import(out);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

async function request(url, init = {}) {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - t0, timing: res.headers.get("server-timing") ?? undefined };
  } catch (error) {
    const timeout = error?.name === "TimeoutError";
    return { status: timeout ? "timeout" : "crash", text: String(error?.cause ?? error), ms: performance.now() - t0 };
  }
}

async function healthy(baseUrl, waitMs) {
  const until = Date.now() + waitMs;
  for (;;) {
    const r = await request(`${baseUrl}/healthz`);
    if (r.status === 200) return true;
    if (Date.now() > until) return false;
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** The demo reference's observable state: its pages, raw definition and listing. */
async function snapshot(baseUrl, token, api, paths) {
  const parts = [];
  for (const p of paths) parts.push(`${p}\n${(await request(`${baseUrl}${p}`)).text}`);
  parts.push((await request(`${baseUrl}/v1/apis/${api}/definition`, { headers: { authorization: `Bearer ${token}` } })).text);
  parts.push((await request(`${baseUrl}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).text);
  return parts.join("\n---\n");
}

export async function main() {
  const { sampleCases, describeCase, mutate, LONG_SCALE, TEXT_MUTATIONS, DATA_MUTATIONS } = await loadFuzzModules();
  const known = new Set([...TEXT_MUTATIONS, ...DATA_MUTATIONS]);
  for (const k of ONLY) if (!known.has(k)) throw new Error(`FUZZ_ONLY: unknown mutation "${k}" (one of ${[...known].join(", ")})`);
  for (const s of CASE_SEEDS) if (!Number.isInteger(s)) throw new Error(`FUZZ_CASE_SEEDS: "${process.env.FUZZ_CASE_SEEDS}" is not a list of integers`);
  const rows = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trimEnd().split("\n");
  const cols = rows.shift().split("\t");
  const files = rows.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i], v]))).filter((r) => r.kind === "root" && r.multi_file !== "yes");
  const texts = new Map();
  const textOf = (i) => texts.get(i) ?? texts.set(i, readFileSync(join(CORPUS, files[i].local_path), "utf8")).get(i);
  // Each case keeps its index in the full list (its api slug `z{i}`), so a replayed case is named as in the long run.
  const cases = sampleCases(files.length, SEED, CASES)
    .map((c, i) => ({ ...c, i }))
    .filter((c) => (ONLY.length === 0 || c.kinds.some((k) => ONLY.includes(k))) && (CASE_SEEDS.size === 0 || CASE_SEEDS.has(c.seed)))
    .slice(0, LIMIT);
  if (cases.length === 0) throw new Error(`fuzz: no case of the ${CASES} (seed ${SEED}) matches FUZZ_ONLY/FUZZ_CASE_SEEDS`);

  const server = await startDevServer();
  const { baseUrl, adminToken } = server;
  const filter = [ONLY.length ? `FUZZ_ONLY=${ONLY.join(",")}` : "", CASE_SEEDS.size ? `FUZZ_CASE_SEEDS=${[...CASE_SEEDS].join(",")}` : "", Number.isFinite(PORTAL_CASES) ? `FUZZ_PORTAL_CASES=${PORTAL_CASES}` : ""].filter(Boolean).join(" ");
  console.log(`fuzz: ${cases.length} cases (seed ${SEED}${filter ? `; ${filter} of ${CASES}` : ""}) over ${files.length} corpus roots against ${baseUrl}; failures → ${LOG}`);
  const demoToken = await createPortal(baseUrl, adminToken, "demo");
  const demo = await request(`${baseUrl}/v1/apis/upload?api=demo`, { method: "POST", headers: { authorization: `Bearer ${demoToken}`, "content-type": "application/yaml" }, body: readFileSync(join(ROOT, "demo/definition.yaml")) });
  const demoUrl = new URL(JSON.parse(demo.text).url).pathname;
  const demoIndex = (await request(`${baseUrl}${demoUrl}`)).text;
  const demoOps = [...new Set([...demoIndex.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]).filter((h) => h.startsWith(demoUrl) && h.length > demoUrl.length))].slice(0, 5);
  const demoPaths = [demoUrl, "/p/demo/reference/demo/", ...demoOps];
  const before = await snapshot(baseUrl, demoToken, "demo", demoPaths);

  const tokens = [];
  for (let w = 0; w < CONCURRENCY; w++) tokens.push(await createPortal(baseUrl, adminToken, `fuzz-${w}`));
  const counts = { cases: 0, 201: 0, 200: 0, "4xx": 0, "5xx": 0, timeouts: 0, crashes: 0, slow: 0, pages: 0, pageFailures: 0 };
  const byStatus = {};
  const uploadMs = [];
  const pageMs = [];
  let worst = { ms: 0 };
  const started = Date.now();
  let next = 0;
  let printed = 0;
  const fail = (entry) => appendFileSync(LOG, JSON.stringify(entry) + "\n");

  async function worker(w) {
    let portalCases = 0;
    let portals = 0;
    for (;;) {
      const n = next++;
      if (n >= cases.length || Date.now() - started > MINUTES * 60_000) return;
      const c = cases[n];
      const i = c.i;
      const what = describeCase(c, files[c.file].local_path);
      let body, contentType;
      try {
        ({ body, contentType } = mutate(textOf(c.file), c.kinds, c.seed, LONG_SCALE));
      } catch (error) {
        fail({ i, what, generator: String(error) });
        continue;
      }
      if (portalCases++ >= PORTAL_CASES) {
        tokens[w] = await createPortal(baseUrl, adminToken, `fuzz-${w}-${++portals}`);
        portalCases = 1;
      }
      const api = `z${i}`;
      const qs = `api=${api}${c.label ? "&version=v" : ""}`;
      const up = await request(`${baseUrl}/v1/apis/upload?${qs}`, { method: "POST", headers: { authorization: `Bearer ${tokens[w]}`, "content-type": contentType }, body });
      counts.cases++;
      byStatus[up.status] = (byStatus[up.status] ?? 0) + 1;
      if (typeof up.status === "number") uploadMs.push(up.ms);
      if (up.ms > worst.ms) worst = { ms: up.ms, what, status: up.status, bytes: body.length };
      if (up.ms > SLOW_MS) counts.slow++;
      if (up.status === 201 || up.status === 200) counts[up.status]++;
      else if (typeof up.status === "number" && up.status < 500) counts["4xx"]++;
      else if (up.status === "timeout") counts.timeouts++;
      else if (up.status === "crash") counts.crashes++;
      else counts["5xx"]++;
      if (typeof up.status !== "number" || up.status >= 500 || up.ms > SLOW_MS) fail({ i, what, upload: up.status, ms: Math.round(up.ms), timing: up.timing, text: up.text.slice(0, 500) });
      if (up.status === 201 || up.status === 200) {
        const versionPath = new URL(JSON.parse(up.text).url).pathname;
        const index = await request(`${baseUrl}${versionPath}`);
        const first = [...index.text.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&")).find((h) => h.startsWith(versionPath) && h.length > versionPath.length && !h.slice(versionPath.length).includes("/"));
        for (const [page, r] of [[versionPath, index], ...(first ? [[first, await request(`${baseUrl}${first}`)]] : [])]) {
          counts.pages++;
          pageMs.push(r.ms);
          if (r.status !== 200 || r.ms > SLOW_MS) {
            counts.pageFailures++;
            fail({ i, what, page, status: r.status, ms: Math.round(r.ms), text: r.text.slice(0, 300) });
          }
        }
      }
      if (!(await healthy(baseUrl, 0))) {
        counts.crashes++;
        fail({ i, what, health: "down after this case" });
        if (!(await healthy(baseUrl, 120_000))) throw new Error(`the server did not come back after case ${i}: ${what}`);
      }
      if (counts.cases >= printed + 500 && (printed = counts.cases)) console.log(`  ${counts.cases} cases, ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(byStatus)}`);
    }
  }
  try {
    await Promise.all(tokens.map((_, w) => worker(w)));
    const after = await snapshot(baseUrl, demoToken, "demo", demoPaths);
    const r = (x) => Math.round(x);
    console.log(`fuzz: ${counts.cases} cases in ${r((Date.now() - started) / 1000)} s (of ${cases.length} planned; seed ${SEED})`);
    console.log(`  answers: 201 ${counts[201]}, 200 ${counts[200]}, 4xx ${counts["4xx"]}, 5xx ${counts["5xx"]}, timeouts ${counts.timeouts}, crashes ${counts.crashes}; slower than ${SLOW_MS / 1000} s: ${counts.slow}`);
    console.log(`  by status: ${JSON.stringify(byStatus)}`);
    console.log(`  upload time: p50 ${r(pct(uploadMs, 50))} ms, p95 ${r(pct(uploadMs, 95))} ms, max ${r(Math.max(0, ...uploadMs))} ms`);
    console.log(`  worst case: ${r(worst.ms)} ms, ${worst.status}, ${worst.bytes} bytes: ${worst.what}`);
    console.log(`  pages: ${counts.pages} requested, ${counts.pageFailures} not 200 or slower than ${SLOW_MS / 1000} s; p50 ${r(pct(pageMs, 50))} ms, p95 ${r(pct(pageMs, 95))} ms, max ${r(Math.max(0, ...pageMs))} ms`);
    console.log(`  demo reference byte-identical after the run: ${after === before ? "yes" : "NO"}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
