// `BENCH_ONLY=portal-scale npm run bench` (or `node bench/portal-scale.mjs`), issue 37: publish into ONE portal, in
// order, the big definitions (GitHub's REST description, then Microsoft Graph v1.0 when SCALE_BIG includes it), then
// small and medium single-file definitions from ../shared/corpus, each as its own API. Prints every publish's time
// as a function of the portal's size, a probe (a 3-operation petstore republished under a new label) every
// SCALE_PROBE_EVERY publishes, the isolate's heap at those points (wrangler's inspector), and search p95 over HTTP at
// the end. Asserts nothing. Knobs: SCALE_N (corpus definitions, default 200), SCALE_BIG (github,graph; "" = none),
// SCALE_PROBE_EVERY (25), SCALE_QUERIES (200), SCALE_SNAPSHOTS (a folder: heap snapshots at the first and the last
// probe before searching, for `node bench/lib/heap-growth.mjs first.heapsnapshot last.heapsnapshot`), SCALE_PROFILE_BIG=1 (a CPU
// profile of the isolate over each big publish, split by function, beside its Server-Timing phases; a folder ending in
// "/" also gets each profile as big-{name}.cpuprofile, for DevTools).
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPortal, freePort, startDevServer } from "../scripts/lib/dev-server.mjs";
import { connectIsolate } from "./lib/isolate-heap.mjs";
import { topFunctions } from "./lib/cpu-profile.mjs";
import { hugeFiles } from "./lib/huge-files.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = process.env.SCALE_CORPUS ?? join(ROOT, "../shared/corpus");
const N = Number(process.env.SCALE_N ?? 200);
const BIG = (process.env.SCALE_BIG ?? "github,graph").split(",").filter(Boolean);
const PROBE_EVERY = Number(process.env.SCALE_PROBE_EVERY ?? 25);
/** Publishes per size bin in the summary. */
const BIN = 25;
const QUERIES = Number(process.env.SCALE_QUERIES ?? 200);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Single-file root definitions of 1-600 operations, smallest and largest interleaved, in manifest order. */
function corpusFiles() {
  const rows = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  return rows
    .filter((r) => r[12] === "root" && r[11] === "no" && Number(r[8]) >= 1 && Number(r[8]) <= 600)
    .map((r) => ({ path: join(CORPUS, r[0]), ops: Number(r[8]), type: r[6] === "json" ? "application/json" : "application/yaml" }))
    .slice(0, N);
}

const phasesOf = (timing) => timing.split(",").map((p) => p.trim().match(/^([\w-]+);dur=([\d.]+)/)).filter(Boolean).map((m) => `${m[1]} ${Math.round(Number(m[2]))}`).join(", ");

async function upload(baseUrl, token, api, version, body, type) {
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/v1/apis/upload?api=${api}&version=${encodeURIComponent(version)}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body });
  const json = await res.json().catch(() => ({}));
  return { ms: performance.now() - t0, status: res.status, json, timing: res.headers.get("server-timing") ?? "" };
}

/**
 * `n` searches over HTTP (the words in turn), each followed by a `GET /healthz` (what the HTTP path alone costs on
 * the machine at that moment): wall times, and the route's Server-Timing phases (d1: the portal row and shard
 * pointers; index: shards read from KV and merged; workerd's clock only moves across I/O, so CPU-bound steps read ~0).
 */
async function searchRound(baseUrl, words, n) {
  const wall = [];
  const health = [];
  const phases = {};
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    const res = await fetch(`${baseUrl}/p/scale/search.json?q=${encodeURIComponent(words[i % words.length])}`);
    await res.text();
    wall.push(performance.now() - t0);
    for (const m of (res.headers.get("server-timing") ?? "").matchAll(/([\w-]+);dur=([\d.]+)/g)) (phases[m[1]] ??= []).push(Number(m[2]));
    t0 = performance.now();
    await fetch(`${baseUrl}/healthz`).then((r) => r.text());
    health.push(performance.now() - t0);
  }
  return { wall, health, phases };
}

function printRound(label, { wall, health, phases }, cpu) {
  const f = (xs) => (xs.length === 1 ? `${xs[0].toFixed(1)}` : `p50 ${pct(xs, 50).toFixed(1)} p95 ${pct(xs, 95).toFixed(1)}`);
  const split = Object.entries(phases).map(([k, xs]) => `${k} ${f(xs)}`).join(", ");
  console.log(`${label} (n=${wall.length}): ${f(wall)} ms; /healthz beside it ${f(health)} ms; server phases [${split}] ms`);
  if (!cpu) return;
  const top = cpu.byFunction.slice(0, 12).map(([k, ms]) => `    ${ms.toFixed(1).padStart(8)} ms  ${k}`).join("\n");
  console.log(`  isolate CPU: ${cpu.totalMs.toFixed(0)} ms in all, ${(cpu.totalMs / wall.length).toFixed(1)} ms a query (gc ${cpu.gcMs.toFixed(0)} ms); self time by function:\n${top}`);
}

export async function main() {
  const inspectorPort = await freePort();
  const server = await startDevServer({ inspectorPort });
  const { baseUrl, adminToken } = server;
  try {
    const token = await createPortal(baseUrl, adminToken, "scale");
    const isolate = await connectIsolate(inspectorPort, () => fetch(`${baseUrl}/healthz`)).catch(() => undefined);
    const heap = async () => (isolate ? (await isolate.heap()).usedMB.toFixed(1) : "?");
    const probeBody = readFileSync(join(ROOT, "test/fixtures/petstore-v3.yaml"));
    const probes = [];
    const smallTimes = [];
    const bins = [];
    // The same 3-operation publish at each portal size (SCALE_PROBE_EVERY=5 gives 5 a bin): what grows with the
    // portal, apart from the corpus definitions' own sizes.
    const probeBins = [];
    let apis = 0;
    let operations = 0;
    const probe = async () => {
      // A new label and body each time, so every probe is a publish (the same twice would answer 200 unchanged).
      const r = await upload(baseUrl, token, "probe", `p${probes.length}`, Buffer.concat([probeBody, Buffer.from(" ".repeat(probes.length + 1))]), "application/yaml");
      probes.push(r.ms);
      const ms = r.ms;
      // Server-Timing phases (ms) show which step grows with the portal, if any.
      const phases = phasesOf(r.timing);
      console.log(`  probe at ${apis} APIs / ${operations} ops: ${r.ms.toFixed(0)} ms (${r.status}) [${phases}], heap ${await heap()} MB`);
      return ms;
    };
    const snapshot = async (name) => {
      if (!process.env.SCALE_SNAPSHOTS || !isolate) return;
      const out = createWriteStream(join(process.env.SCALE_SNAPSHOTS, `${name}.heapsnapshot`));
      await isolate.snapshot((chunk) => out.write(chunk));
      await new Promise((r) => out.end(r));
    };
    const bigPath = (name) => (name === "github" ? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json") : hugeFiles()[name]);
    const big = BIG.map((name) => ({ name, file: { path: bigPath(name), type: "application/json" } }));
    for (const { name, file } of big) {
      if (!file?.path) continue;
      // SCALE_PROFILE_BIG=1: the isolate's CPU profile over the big publish (the Worker and, locally, the
      // PortalPublisher share it), beside its Server-Timing phases: which step of a big publish takes the time.
      const profiler = process.env.SCALE_PROFILE_BIG ? await isolate?.startProfile(1000).catch(() => undefined) : undefined;
      const r = await upload(baseUrl, token, `big-${name}`, "1", readFileSync(file.path), file.type);
      const cpu = await profiler?.stop().catch(() => undefined);
      apis++;
      operations += r.json?.counts?.operations ?? r.json?.operations ?? 0;
      console.log(`big ${name}: ${r.ms.toFixed(0)} ms (${r.status}) [${phasesOf(r.timing)}]${r.status >= 400 ? ` ${JSON.stringify(r.json).slice(0, 300)}` : ""}`);
      if (cpu) {
        console.log(`  isolate CPU ${cpu.totalMs.toFixed(0)} ms (gc ${cpu.gcMs.toFixed(0)} ms); self time by function:\n${cpu.byFunction.slice(0, 20).map(([k, ms]) => `    ${ms.toFixed(1).padStart(8)} ms  ${k}`).join("\n")}`);
        console.log(`  share of samples, self and callees:\n${topFunctions(cpu.profile, true, 40).map((l) => `    ${l}`).join("\n")}`);
        if (process.env.SCALE_PROFILE_BIG.endsWith("/")) writeFileSync(join(process.env.SCALE_PROFILE_BIG, `big-${name}.cpuprofile`), JSON.stringify(cpu.profile));
      }
    }
    await probe();
    await snapshot("first");
    for (const [i, f] of corpusFiles().entries()) {
      const r = await upload(baseUrl, token, `c${i}`, "1", readFileSync(f.path), f.type);
      if (r.status === 201) {
        apis++;
        operations += f.ops;
        if (f.ops <= 50) smallTimes.push(r.ms);
      }
      if (r.status === 201 && f.ops <= 50) (bins[Math.floor(i / BIN)] ??= []).push(r.ms);
      // A slow publish says which step took the time (Server-Timing), so a step growing with the portal shows.
      console.log(`#${i} ${f.ops} ops: ${r.ms.toFixed(0)} ms (${r.status})${r.ms > 500 ? ` [${phasesOf(r.timing)}]` : ""}`);
      if ((i + 1) % PROBE_EVERY === 0) (probeBins[Math.floor(i / BIN)] ??= []).push(await probe());
    }
    const words = ["list", "create user", "delete", "pet", "repos", "token", "update status", "get order", "webhook", "search"];
    console.log(`portal: ${apis} APIs, ~${operations} operations`);
    console.log(`small (≤ 50 ops) publishes: n=${smallTimes.length} p50 ${pct(smallTimes, 50)?.toFixed(0)} ms p95 ${pct(smallTimes, 95)?.toFixed(0)} ms`);
    const binned = (bs) => bs.map((b) => `${pct(b, 50).toFixed(0)}/${pct(b, 95).toFixed(0)}/${Math.max(...b).toFixed(0)}`).join(", ");
    console.log(`small publishes per ${BIN} corpus publishes (p50 / p95 / max ms): ${binned(bins)}`);
    console.log(`probes per ${BIN} corpus publishes (p50 / p95 / max ms): ${binned(probeBins.filter(Boolean))}`);
    console.log(`probe publishes: ${probes.map((x) => x.toFixed(0)).join(", ")} ms`);
    await snapshot("last");
    const profiled = async (label, n) => {
      const profiler = await isolate?.startProfile().catch(() => undefined);
      const r = await searchRound(baseUrl, words, n);
      const cpu = await profiler?.stop().catch(() => undefined);
      printRound(label, r, cpu);
      return r;
    };
    // The first query loads and merges every shard (a cold isolate, as far as search goes), then the same words.
    await profiled("first query (cold)", 1);
    await profiled("search over HTTP", QUERIES);
    // A publish while readers search (issue 37): the isolate holds the other shards; the first query after it
    // loads the new shard and merges (shards.ts derives the merge from the previous one), then the same queries.
    await probe();
    await profiled("first query after one more publish", 1);
    await profiled("search over HTTP after it", QUERIES);
    console.log(`isolate heap at the end: ${await heap()} MB`);
    isolate?.close();
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
