// One operation page over HTTP against `wrangler dev`, on GitHub's REST description: the heaviest page
// (`repos/get`, "Get a repository") requested again and again, TTFB and total p50/p95, so a change to the page's
// work shows in minutes rather than after render-peers' browser runs. With BENCH_PROFILE=1 a CPU profile of the
// Worker isolate (V8 inspector through wrangler's proxy) is taken over the same requests and its top functions
// printed. Prints figures; asserts nothing. BENCH_OP_REQUESTS (timed requests per round, 100), BENCH_OP_ROUNDS
// (rounds, 3: the machine is shared, compare the best round; the CPU the dev server's processes spend per request
// is printed too, a figure the machine's load barely moves), BENCH_OP_SLUG (another operation, repos-get).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createPortal, freePort, startDevServer } from "../scripts/lib/dev-server.mjs";
import { topFunctions } from "./lib/cpu-profile.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const SPEC = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const REQUESTS = Number(process.env.BENCH_OP_REQUESTS ?? 100);
const ROUNDS = Number(process.env.BENCH_OP_ROUNDS ?? 3);
const SLUG = process.env.BENCH_OP_SLUG ?? "repos-get";
const PROFILE = process.env.BENCH_PROFILE === "1";

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;

/**
 * CPU milliseconds (user + system) used so far by every process of the dev server's process group (wrangler,
 * workerd: the Worker, its D1, KV and R2), from /proc (Linux). Unlike wall time, the shared machine's load barely
 * moves it: it is the work a request costs.
 */
function groupCpuMs(pgid) {
  let ticks = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd on: state, ppid, pgrp, ...
    if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function timedGet(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const ttfb = performance.now() - t0;
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return { ttfb, total: performance.now() - t0, bytes: body.byteLength };
}

/** A CDP session on the isolate (bench/lib/isolate-heap.mjs explains why through wrangler's proxy). */
async function inspector(port, poke) {
  let ws;
  for (let i = 0; ; i++) {
    ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { origin: "http://127.0.0.1" } });
    if (await new Promise((r) => { ws.addEventListener("open", () => r(true), { once: true }); ws.addEventListener("error", () => r(false), { once: true }); })) break;
    if (i > 60) throw new Error("inspector did not accept a connection");
    await new Promise((r) => setTimeout(r, 500));
  }
  let next = 1;
  const pending = new Map();
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(String(e.data));
    if (msg.id !== undefined && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      msg.error ? p.reject(new Error(msg.error.message)) : p.resolve(msg.result);
    }
  });
  const call = async (method, params = {}) => {
    const id = next++;
    let out;
    const done = new Promise((resolve, reject) => pending.set(id, { resolve, reject })).then((r) => (out = { r }));
    ws.send(JSON.stringify({ id, method, params }));
    while (!out) await Promise.race([done, poke().then(() => new Promise((r) => setTimeout(r, 50)))]);
    return out.r;
  };
  return { call, close: () => ws.close() };
}

export async function main() {
  console.log(`== operation-page: GitHub REST description, ${SLUG} over HTTP (wrangler dev, local) ==`);
  const inspectorPort = PROFILE ? await freePort() : undefined;
  const server = await startDevServer({ inspectorPort });
  try {
    const token = await createPortal(server.baseUrl, server.adminToken, "bench");
    const res = await fetch(`${server.baseUrl}/v1/apis/upload?api=github&version=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: readFileSync(SPEC),
    });
    const published = await res.json();
    if (res.status !== 201) throw new Error(`publish: ${res.status} ${JSON.stringify(published).slice(0, 300)}`);
    const url = `${published.url}${SLUG}`;
    for (let i = 0; i < 20; i++) await timedGet(url); // warm the isolate and its caches, not counted
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const runs = [];
      const cpu0 = groupCpuMs(server.pid);
      for (let i = 0; i < REQUESTS; i++) runs.push(await timedGet(url));
      const cpuMs = (groupCpuMs(server.pid) - cpu0) / REQUESTS;
      const round = { cpuMs, ttfb50: pct(runs.map((x) => x.ttfb), 50), ttfb95: pct(runs.map((x) => x.ttfb), 95), total50: pct(runs.map((x) => x.total), 50), total95: pct(runs.map((x) => x.total), 95), bytes: runs[0].bytes };
      rounds.push(round);
      console.log(`  round ${r + 1}: TTFB p50 ${ms(round.ttfb50)}  p95 ${ms(round.ttfb95)}  total p50 ${ms(round.total50)}  p95 ${ms(round.total95)}  CPU ${ms(round.cpuMs)}/request  (${REQUESTS} requests, ${(round.bytes / 1024).toFixed(1)} KB of HTML)`);
    }
    const best = rounds.slice().sort((a, b) => a.total50 - b.total50)[0];
    const cpu = rounds.map((r) => r.cpuMs).sort((a, b) => a - b)[0];
    console.log(`  best round: total p50 ${ms(best.total50)}  (target p50 <= 20 ms); least CPU ${ms(cpu)} per request (wrangler dev and workerd, all processes)`);
    // The rounds above reuse the isolate's rendered article (pages/operation-page.tsx); a reader opening pages
    // nobody opened since the isolate started pays the whole render: 100 operations spread over the sitemap, once each.
    const sitemap = await (await fetch(`${server.baseUrl}/p/bench/sitemap.xml`)).text();
    const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname).filter((p) => /\/reference\/github\/[^/]+\/[^/]+$/.test(p));
    const step = Math.max(1, Math.floor(pages.length / REQUESTS));
    const firsts = pages.filter((_, i) => i % step === 0).slice(0, REQUESTS);
    const cold = [];
    const cpuCold0 = groupCpuMs(server.pid);
    for (const path of firsts) cold.push(await timedGet(`${server.baseUrl}${path}`));
    const cpuCold = (groupCpuMs(server.pid) - cpuCold0) / Math.max(1, firsts.length);
    console.log(`  first view of ${firsts.length} other operations (no article kept yet): total p50 ${ms(pct(cold.map((x) => x.total), 50))}  p95 ${ms(pct(cold.map((x) => x.total), 95))}  CPU ${ms(cpuCold)}/request`);
    if (PROFILE) {
      const cdp = await inspector(inspectorPort, () => timedGet(url).catch(() => {}));
      await cdp.call("Profiler.enable");
      await cdp.call("Profiler.setSamplingInterval", { interval: 100 });
      await cdp.call("Profiler.start");
      for (let i = 0; i < REQUESTS; i++) await timedGet(url);
      const { profile } = await cdp.call("Profiler.stop");
      cdp.close();
      console.log(`  CPU profile of the isolate over ${REQUESTS} requests (self):`);
      for (const line of topFunctions(profile, false, 25)) console.log(`    ${line}`);
      console.log("  inclusive:");
      for (const line of topFunctions(profile, true, 40)) console.log(`    ${line}`);
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
