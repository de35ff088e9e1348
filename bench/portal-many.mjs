// `BENCH_ONLY=portal-many npm run bench` (or `node bench/portal-many.mjs`), issue 37's second run: MANY_PORTALS
// small portals (default 1,000) of MANY_APIS APIs each (default 3: small corpus definitions, the same three bytes
// in every portal so that only the per-portal rows and shards grow), one after another on one `wrangler dev`. Prints
// the first portal's operation-page and search latency over HTTP, then, every MANY_PROBE_EVERY portals (250), the
// publish p50/p95 of the last batch and the isolate's heap, and at the end the first and the last portal's page and
// search latency again (the goal: equal to the first portal's when it was alone). Asserts nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPortal, freePort, startDevServer } from "../scripts/lib/dev-server.mjs";
import { connectIsolate } from "./lib/isolate-heap.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = process.env.SCALE_CORPUS ?? join(ROOT, "../shared/corpus");
const PORTALS = Number(process.env.MANY_PORTALS ?? 1000);
const APIS = Number(process.env.MANY_APIS ?? 3);
const PROBE_EVERY = Number(process.env.MANY_PROBE_EVERY ?? 250);
const READS = Number(process.env.MANY_READS ?? 50);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** MANY_APIS single-file corpus definitions of 3-30 operations. */
function definitions() {
  const rows = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  return rows
    .filter((r) => r[12] === "root" && r[11] === "no" && Number(r[8]) >= 3 && Number(r[8]) <= 30)
    .slice(0, APIS)
    .map((r) => ({ body: readFileSync(join(CORPUS, r[0])), type: r[6] === "json" ? "application/json" : "application/yaml" }));
}

async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, out };
}

export async function main() {
  const inspectorPort = await freePort();
  const server = await startDevServer({ inspectorPort });
  const { baseUrl, adminToken } = server;
  try {
    const isolate = await connectIsolate(inspectorPort, () => fetch(`${baseUrl}/healthz`)).catch(() => undefined);
    const heap = async () => (isolate ? (await isolate.heap()).usedMB.toFixed(1) : "?");
    const defs = definitions();
    const publish = async (slug) => {
      const token = await createPortal(baseUrl, adminToken, slug);
      const times = [];
      for (const [i, d] of defs.entries()) {
        const { ms, out } = await timed(() => fetch(`${baseUrl}/v1/apis/upload?api=api${i}&version=1`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": d.type }, body: d.body }).then(async (r) => ({ status: r.status, json: await r.json() })));
        if (out.status !== 201) throw new Error(`${slug} api${i}: ${out.status} ${JSON.stringify(out.json).slice(0, 300)}`);
        times.push(ms);
      }
      return times;
    };
    /** Operation page and search p50/p95 of one portal over HTTP. */
    const reads = async (slug) => {
      const index = await (await fetch(`${baseUrl}/p/${slug}/reference/api0/1/`)).text();
      const op = [...index.matchAll(/href="(\/p\/[^"]+\/reference\/api0\/1\/[^"#/]+)"/g)].map((m) => m[1])[0];
      const page = [];
      const search = [];
      for (let i = 0; i < READS; i++) {
        page.push((await timed(() => fetch(baseUrl + op).then((r) => r.text()))).ms);
        search.push((await timed(() => fetch(`${baseUrl}/p/${slug}/search.json?q=${["list", "get", "create", "delete", "update"][i % 5]}`).then((r) => r.text()))).ms);
      }
      return `page p50 ${pct(page, 50).toFixed(1)} / p95 ${pct(page, 95).toFixed(1)} ms, search p50 ${pct(search, 50).toFixed(1)} / p95 ${pct(search, 95).toFixed(1)} ms`;
    };
    let batch = await publish("many-0");
    console.log(`portal 1 alone: ${await reads("many-0")}, heap ${await heap()} MB`);
    for (let p = 1; p < PORTALS; p++) {
      batch.push(...(await publish(`many-${p}`)));
      if ((p + 1) % PROBE_EVERY === 0 || p === PORTALS - 1) {
        console.log(`${p + 1} portals: publish p50 ${pct(batch, 50).toFixed(0)} / p95 ${pct(batch, 95).toFixed(0)} ms (last ${batch.length}), heap ${await heap()} MB`);
        batch = [];
      }
    }
    console.log(`portal 1 at the end: ${await reads("many-0")}`);
    console.log(`portal ${PORTALS} at the end: ${await reads(`many-${PORTALS - 1}`)}`);
    isolate?.close();
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
