// Publish N operations (issue 14: the long fuzz run's slowest uploads were 7,500-9,000-operation "many-paths"
// definitions, 10-13 s each). Against `wrangler dev`: a definition of N trivial operations (petstore plus N
// `/fuzz/p{i}` paths, the fuzzer's many-paths shape, in YAML and JSON) is published BENCH_RUNS times; prints the
// upload time p50/min/max and the Server-Timing phases of the median run. Then, while one 9,000-operation publish
// runs on one portal, a small API's operation page on another portal is fetched every 100 ms: prints how long
// those pages took (a publish that never yields would hold them for its whole length). Asserts nothing.
// Also: the 9,000-operation JSON published as API 1, 2, … of one portal (its search phase rebuilds the portal's
// whole index, so it grows with the portal).
// Env: PUBLISH_OPS (2000,9000; "none" for the concurrent page figure alone), BENCH_RUNS (3), PUBLISH_OPS_GROWTH (4).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const SIZES = (process.env.PUBLISH_OPS ?? "2000,9000").split(",").filter((s) => /^\d+$/.test(s)).map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GROWTH = Number(process.env.PUBLISH_OPS_GROWTH ?? 4);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (x) => `${Math.round(x)} ms`;

/** Petstore with `n` more paths, each one GET with an operationId and a 200 (test/fuzz/hostile.ts manyPaths). */
export function manyOperations(n, format) {
  const doc = parse(readFileSync(join(ROOT, "test/fixtures/petstore-v3.yaml"), "utf8"));
  for (let i = 0; i < n; i++) doc.paths[`/fuzz/p${i}`] = { get: { operationId: `fuzz${i}`, responses: { 200: { description: "ok" } } } };
  return format === "yaml" ? { body: stringify(doc, { lineWidth: 0 }), type: "application/yaml" } : { body: JSON.stringify(doc), type: "application/json" };
}

async function upload(baseUrl, token, api, label, def) {
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/v1/apis/upload?api=${api}&version=${label}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": def.type }, body: def.body });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 201) throw new Error(`${api}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, json: JSON.parse(text), timing: res.headers.get("server-timing") ?? "" };
}

/** `server-timing: build;dur=12, lint;dur=3` → "build 12, lint 3". */
const phases = (header) => header.split(",").map((p) => p.trim().replace(/;dur=/, " ")).join(", ");

export async function main() {
  console.log("== publish-ops (issue 14): publish N operations through HTTP against wrangler dev ==");
  const server = await startDevServer();
  const { baseUrl } = server;
  try {
    for (const n of SIZES) {
      for (const format of ["yaml", "json"]) {
        // A portal of its own: a publish rebuilds its portal's whole search index, other APIs included.
        const token = await createPortal(baseUrl, server.adminToken, `ops-${n}-${format}`);
        const def = manyOperations(n, format);
        const runs = [];
        // A new label and a trailing space per run: a new hash, so every run builds and writes the whole model.
        for (let r = 0; r < RUNS; r++) runs.push(await upload(baseUrl, token, `n${n}-${format}`, `r${r}`, { ...def, body: def.body + " ".repeat(r + 1) }));
        const times = runs.map((r) => r.ms);
        const median = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
        console.log(`  publish ${n + 3} operations (${format}, ${(def.body.length / 1048576).toFixed(2)} MB, ${RUNS} runs): p50 ${ms(pct(times, 50))}  min ${ms(Math.min(...times))}  max ${ms(Math.max(...times))}; ${median.json.lint.status === "pending" ? "lint after the answer (pending)" : `lint ${median.json.lint.errors} errors, ${median.json.lint.warnings} warnings, ${median.json.lint.issues.length} listed`}`);
        console.log(`    server-timing (median run): ${phases(median.timing)}`);
      }
    }

    // The same definition published as new APIs of one portal: each publish rebuilds the portal's whole search
    // index, so its search phase grows with what the portal already holds.
    const growing = await createPortal(baseUrl, server.adminToken, "ops-growing");
    const json9000 = manyOperations(9000, "json");
    const steps = [];
    for (let k = 1; k <= GROWTH; k++) {
      const r = await upload(baseUrl, growing, `g${k}`, "v1", json9000);
      steps.push(`${k}: ${ms(r.ms)} (search ${/search;dur=(\d+)/.exec(r.timing)?.[1] ?? "?"} ms)`);
    }
    if (GROWTH > 0) console.log(`  the 9,003-operation JSON published as API 1..${GROWTH} of one portal: ${steps.join(", ")}`);

    // A page on another portal while a 9,000-operation publish runs.
    const token = await createPortal(baseUrl, server.adminToken, "ops");
    const other = await createPortal(baseUrl, server.adminToken, "ops-reader");
    const small = await upload(baseUrl, other, "pets", "v1", { body: readFileSync(join(ROOT, "test/fixtures/petstore-v3.yaml"), "utf8"), type: "application/yaml" });
    const index = await (await fetch(small.json.url)).text();
    const base = new URL(small.json.url).pathname;
    const page = [...index.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]).find((h) => h.startsWith(base) && h.length > base.length) ?? base;
    await fetch(baseUrl + page).then((r) => r.text());
    const big = manyOperations(9000, "yaml");
    let done = false;
    const publishing = upload(baseUrl, token, "concurrent", "v1", big).finally(() => (done = true));
    const pageMs = [];
    // Every fetch started while the publish runs counts, also one that ends after it (held until it ended).
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(baseUrl + page);
      await res.text();
      pageMs.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
    const pub = await publishing;
    console.log(`  page of a small API while a 9,003-operation publish runs (${ms(pub.ms)}): ${pageMs.length} fetches, p50 ${ms(pct(pageMs, 50))}, p95 ${ms(pct(pageMs, 95))}, max ${ms(Math.max(0, ...pageMs))}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
