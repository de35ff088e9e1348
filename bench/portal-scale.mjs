// `BENCH_ONLY=portal-scale npm run bench` (or `node bench/portal-scale.mjs`), issue 37: publish into ONE portal, in
// order, the big definitions (GitHub's REST description, then Microsoft Graph v1.0 when SCALE_BIG includes it), then
// small and medium single-file definitions from ../shared/corpus, each as its own API. Prints every publish's time
// as a function of the portal's size, a probe (a 3-operation petstore republished under a new label) every
// SCALE_PROBE_EVERY publishes, the isolate's heap at those points (wrangler's inspector), and search p95 over HTTP at
// the end. Asserts nothing. Knobs: SCALE_N (corpus definitions, default 200), SCALE_BIG (github,graph; "" = none),
// SCALE_PROBE_EVERY (25), SCALE_QUERIES (200).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPortal, freePort, startDevServer } from "../scripts/lib/dev-server.mjs";
import { connectIsolate } from "./lib/isolate-heap.mjs";
import { hugeFiles } from "./lib/huge-files.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = process.env.SCALE_CORPUS ?? join(ROOT, "../shared/corpus");
const N = Number(process.env.SCALE_N ?? 200);
const BIG = (process.env.SCALE_BIG ?? "github,graph").split(",").filter(Boolean);
const PROBE_EVERY = Number(process.env.SCALE_PROBE_EVERY ?? 25);
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

async function upload(baseUrl, token, api, version, body, type) {
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/v1/apis/upload?api=${api}&version=${encodeURIComponent(version)}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body });
  const json = await res.json().catch(() => ({}));
  return { ms: performance.now() - t0, status: res.status, json, timing: res.headers.get("server-timing") ?? "" };
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
    let apis = 0;
    let operations = 0;
    const probe = async () => {
      // A new label and body each time, so every probe is a publish (the same twice would answer 200 unchanged).
      const r = await upload(baseUrl, token, "probe", `p${probes.length}`, Buffer.concat([probeBody, Buffer.from(" ".repeat(probes.length + 1))]), "application/yaml");
      probes.push(r.ms);
      // Server-Timing phases (ms) show which step grows with the portal, if any.
      const phases = r.timing.split(",").map((p) => p.trim().match(/^([\w-]+);dur=([\d.]+)/)).filter(Boolean).map((m) => `${m[1]} ${Math.round(Number(m[2]))}`).join(", ");
      console.log(`  probe at ${apis} APIs / ${operations} ops: ${r.ms.toFixed(0)} ms (${r.status}) [${phases}], heap ${await heap()} MB`);
    };
    const bigPath = (name) => (name === "github" ? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json") : hugeFiles()[name]);
    const big = BIG.map((name) => ({ name, file: { path: bigPath(name), type: "application/json" } }));
    for (const { name, file } of big) {
      if (!file?.path) continue;
      const r = await upload(baseUrl, token, `big-${name}`, "1", readFileSync(file.path), file.type);
      apis++;
      operations += r.json?.counts?.operations ?? 0;
      console.log(`big ${name}: ${r.ms.toFixed(0)} ms (${r.status})`);
    }
    await probe();
    for (const [i, f] of corpusFiles().entries()) {
      const r = await upload(baseUrl, token, `c${i}`, "1", readFileSync(f.path), f.type);
      if (r.status === 201) {
        apis++;
        operations += f.ops;
        if (f.ops <= 50) smallTimes.push(r.ms);
      }
      console.log(`#${i} ${f.ops} ops: ${r.ms.toFixed(0)} ms (${r.status})`);
      if ((i + 1) % PROBE_EVERY === 0) await probe();
    }
    const words = ["list", "create user", "delete", "pet", "repos", "token", "update status", "get order", "webhook", "search"];
    const times = [];
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      await fetch(`${baseUrl}/p/scale/search.json?q=${encodeURIComponent(words[i % words.length])}`).then((r) => r.text());
      times.push(performance.now() - t0);
    }
    console.log(`portal: ${apis} APIs, ~${operations} operations`);
    console.log(`small (≤ 50 ops) publishes: n=${smallTimes.length} p50 ${pct(smallTimes, 50)?.toFixed(0)} ms p95 ${pct(smallTimes, 95)?.toFixed(0)} ms`);
    console.log(`probe publishes: ${probes.map((x) => x.toFixed(0)).join(", ")} ms`);
    console.log(`search over HTTP: p50 ${pct(times, 50).toFixed(1)} ms p95 ${pct(times, 95).toFixed(1)} ms (the first query, which loads and merges every shard in a cold isolate: ${times[0].toFixed(0)} ms)`);
    // A publish while readers search (issue 37): the isolate holds the other shards; the first query after it
    // loads the new shard and merges (shards.ts derives the merge from the previous one), then the same queries.
    await probe();
    const after = [];
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      await fetch(`${baseUrl}/p/scale/search.json?q=${encodeURIComponent(words[i % words.length])}`).then((r) => r.text());
      after.push(performance.now() - t0);
    }
    console.log(`search over HTTP after one more publish: first query ${after[0].toFixed(0)} ms, p50 ${pct(after, 50).toFixed(1)} ms p95 ${pct(after, 95).toFixed(1)} ms`);
    isolate?.close();
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
