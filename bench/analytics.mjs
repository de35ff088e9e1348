// Analytics benchmark (issue 29, docs/analytics.md): against `wrangler dev` with a throw-away state.
// 1. Ingest: batches of 50 events (20 searches, 20 clicks, 10 page ratings, with query ids signed by search.json)
//    through POST /p/{portal}/analytics/events, 8 at a time from distinct client addresses; prints events/s and SQL
//    statements per event (the route's Server-Timing `ingest;desc="N statements"`: one transaction per request).
// 2. Six months of a busy portal: 183 days x 10,000 searches a day over 20,000 distinct queries (Zipf, s = 1; 8% of
//    them find nothing), half the searches clicked, 300 page ratings a day over 200 pages, seeded day by day through
//    POST /v1/analytics/seed (local only); then the writers' API over HTTP, 30 calls each: p50 / p95 in ms; rows per
//    table and the object's SQLite size. Target: dashboard API p95 <= 150 ms. Asserts nothing.
import { readFileSync } from "node:fs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
// mulberry32, as the demo seed uses: deterministic figures from run to run.
import { prng } from "../scripts/lib/demo-analytics.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const DAY = 86_400_000;
const day = (ms) => new Date(ms).toISOString().slice(0, 10);


async function ingest(base, token, slug) {
  const words = ["shipment", "label", "tracking", "webhook", "rate", "parcel", "pickup", "cancel", "error", "key", "invoice", "sdk", "customs", "page", "limit", "create", "list", "update", "retry", "status"];
  const ids = [];
  for (let i = 0; i < 60; i++) {
    const q = `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]}${i % 9 === 0 ? " zzqx" : ""}`;
    const r = await (await fetch(`${base}/p/${slug}/search.json?q=${encodeURIComponent(q)}`)).json();
    if (r.queryId) ids.push({ q, queryId: r.queryId, total: r.total, url: r.results[0]?.url ?? `/p/${slug}/` });
  }
  const batch = (n) => {
    const out = [];
    for (let i = 0; i < 20; i++) {
      const a = ids[(n * 20 + i) % ids.length];
      out.push({ type: "search", queryId: a.queryId, q: a.q, results: a.total });
    }
    for (let i = 0; i < 20; i++) {
      const a = ids[(n * 13 + i) % ids.length];
      out.push({ type: "click", queryId: a.queryId, position: 1 + (i % 5), url: a.url });
    }
    for (let i = 0; i < 10; i++) out.push({ type: "feedback", url: `/p/${slug}/guides/page-${(n + i) % 40}`, helpful: i % 3 !== 0, ...(i % 5 === 0 ? { comment: "More examples, please." } : {}) });
    return out;
  };
  const REQUESTS = 400;
  const CONCURRENCY = 8;
  let next = 0;
  let events = 0;
  let statements = 0;
  let refused = 0;
  const latencies = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      const n = next++;
      const body = batch(n);
      const t = performance.now();
      const res = await fetch(`${base}/p/${slug}/analytics/events`, { method: "POST", headers: { "content-type": "application/json", "cf-connecting-ip": `10.1.${n >> 8}.${n & 255}` }, body: JSON.stringify(body) });
      latencies.push(performance.now() - t);
      await res.arrayBuffer();
      if (res.status !== 204) refused++;
      events += body.length;
      statements += Number(/(\d+) statements/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? 0);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  console.log(`ingest: ${REQUESTS} requests x 50 events, ${CONCURRENCY} concurrent: ${Math.round(events / seconds)} events/s; request p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms; ${refused} not 204`);
  console.log(`ingest: ${(statements / events).toFixed(3)} SQL statements per event (${(statements / REQUESTS).toFixed(1)} per request, one transaction each; D1 statements: 0, the rollups live in the portal's PortalAnalytics object)`);
}

async function busyPortal(base, token) {
  const random = prng(183);
  const DISTINCT = 20_000;
  const PER_DAY = 10_000;
  const DAYS = 183;
  const vocabulary = "account address api auth balance batch billing cancel card carrier charge client code create customer customs delete delivery error event export fee filter format id invoice key label limit list locale log order page parcel payment pickup price quote rate receipt refund report request retry return scope sdk search secret shipment signature status subscription tax test token tracking update user version webhook weight zone".split(" ");
  const queries = Array.from({ length: DISTINCT }, (_, r) => `${vocabulary[r % vocabulary.length]} ${vocabulary[Math.floor(r / vocabulary.length) % vocabulary.length]}${r >= vocabulary.length ** 2 ? ` ${r}` : ""}`);
  const noHit = queries.map(() => random() < 0.08);
  // Zipf (s = 1) over the ranks: the cumulative weights, sampled by binary search.
  const cdf = new Float64Array(DISTINCT);
  let acc = 0;
  for (let r = 0; r < DISTINCT; r++) cdf[r] = acc += 1 / (r + 1);
  const sample = () => {
    const x = random() * acc;
    let lo = 0;
    let hi = DISTINCT - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const now = Date.now();
  let figures;
  const t0 = performance.now();
  const CHUNK = 6;
  for (let start = DAYS - 1; start >= 0; start -= CHUNK) {
    const batches = [];
    for (let back = start; back > start - CHUNK && back >= 0; back--) {
      const searches = [];
      const clicks = [];
      for (let i = 0; i < PER_DAY; i++) {
        const r = sample();
        searches.push({ q: queries[r], results: noHit[r] ? 0 : 12 });
        if (!noHit[r] && random() < 0.5) clicks.push({ q: queries[r], position: 1 + Math.floor(-Math.log(1 - random()) * 1.5) });
      }
      const ratings = Array.from({ length: 300 }, (_, i) => ({ url: `/p/busy/guides/page-${Math.floor(random() * 200)}`, helpful: random() < 0.75, ...(i % 20 === 0 ? { comment: "Could use an example." } : {}) }));
      batches.push({ day: day(now - back * DAY), searches, clicks, ratings });
    }
    const res = await fetch(`${base}/v1/analytics/seed`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ batches }) });
    figures = await res.json();
    if (res.status !== 200) throw new Error(`seed: ${res.status} ${JSON.stringify(figures).slice(0, 300)}`);
  }
  const seedSeconds = (performance.now() - t0) / 1000;
  const rows = Object.values(figures.rows).reduce((a, b) => a + b, 0);
  console.log(`busy portal: ${DAYS} days x ${PER_DAY} searches (${DISTINCT} distinct queries) seeded in ${seedSeconds.toFixed(1)} s (${Math.round((DAYS * PER_DAY) / seedSeconds)} searches/s through the seed route)`);
  console.log(`busy portal: rows ${rows} (${Object.entries(figures.rows).map(([k, v]) => `${k} ${v}`).join(", ")}); SQLite size ${(figures.bytes / 1024 / 1024).toFixed(1)} MiB (${Math.round(figures.bytes / rows)} bytes a row, indexes included)`);
  // Cold: ten different ranges of the same length, each asked for the first time; warm: one range again and again
  // (SQLite's page cache and the isolate warm; the object keeps no report or per-range sums between calls).
  const calls = [
    ["search", 30, "search?"],
    ["search", 183, "search?"],
    ["search (assistant)", 183, "search?kind=assistant&"],
    ["pages", 30, "pages?"],
    ["dashboard.html", 30, "dashboard.html?"],
    ["dashboard.html", 183, "dashboard.html?"],
    ["backlog", 30, "backlog?"],
    ["backlog", 183, "backlog?"],
  ];
  const range = (days, shift) => `from=${day(now - (days - 1 + shift) * DAY)}&to=${day(now - shift * DAY)}`;
  const timed = async (path) => {
    const t = performance.now();
    const res = await fetch(`${base}/v1/analytics/${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return { ms: performance.now() - t, bytes: body.byteLength };
  };
  await timed("search"); // the isolate and the object started
  for (const [label, days, path] of calls) {
    const cold = [];
    const warm = [];
    let bytes = 0;
    // Ten ranges never asked before: 30 days ending 1-10 days ago; 183 down to 174 days ending today (retention
    // allows no older start).
    for (let k = 0; k < 10; k++) cold.push((await timed(`${path}${days === 183 ? `from=${day(now - (182 - k) * DAY)}&to=${day(now)}` : range(days, k + 1)}`)).ms);
    for (let i = 0; i < 21; i++) {
      const r = await timed(`${path}${range(days, 0)}`);
      if (i > 0) warm.push(r.ms);
      bytes = r.bytes;
    }
    console.log(`  GET /v1/analytics/${`${label}, ${days} days`.padEnd(28)} cold p50 ${pct(cold, 50).toFixed(0).padStart(5)} / p95 ${pct(cold, 95).toFixed(0).padStart(5)} ms   warm p50 ${pct(warm, 50).toFixed(0).padStart(4)} / p95 ${pct(warm, 95).toFixed(0).padStart(4)} ms  (${(bytes / 1024).toFixed(0)} KiB)`);
  }
  const csv = await timed(`export.csv?table=queries&${range(30, 0)}`);
  console.log(`  GET /v1/analytics/export.csv?table=queries, 30 days: ${csv.ms.toFixed(0)} ms (${(csv.bytes / 1024).toFixed(0)} KiB)`);
}

export async function main() {
  console.log("analytics (issue 29)");
  const server = await startDevServer();
  try {
    const base = server.baseUrl;
    const token = await createPortal(base, server.adminToken, "bench-analytics");
    const up = await fetch(`${base}/v1/apis/upload`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: readFileSync(`${ROOT}demo/definition.yaml`) });
    if (up.status >= 300) throw new Error(`upload: ${up.status}`);
    await ingest(base, token, "bench-analytics");
    const busy = await createPortal(base, server.adminToken, "busy");
    await busyPortal(base, busy);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
