// Publish benchmark (issue 2): end-to-end publish time through HTTP against `wrangler dev`, reader page
// latencies (p50/p95), the core build's peak heap under a 128 MB cap, and Redocly CLI's build-docs on the
// same files. A definition past the inline lint budget goes live before its lint report exists (issue 12): the
// run then also times "report ready" (upload sent → GET …/lint answers 200) and waits for it before the next run,
// so no run's publish waits behind the previous run's lint. Prints figures; asserts nothing.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { coreRunner } from "./core-build.mjs";
import { hugeFiles } from "./lib/huge-files.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
export const FILES = [
  { name: "petstore (3.0, 3 ops)", path: join(ROOT, "test/fixtures/petstore-v3.yaml"), type: "application/yaml" },
  { name: "DigitalOcean (1.07 MB JSON)", path: join(ROOT, "../shared/corpus/apis-guru-npm/api/digitalocean.com.json"), type: "application/json" },
  { name: "GitHub REST (13 MB JSON)", path: join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"), type: "application/json" },
  // Issue 12: 11,422 operations; fetched on first use (bench/lib/huge-files.mjs).
  { name: "Microsoft Graph v1.0 (20 MB JSON)", huge: "graph", type: "application/json" },
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// BENCH_FILES=github,graph picks files by a word of their name (case-insensitive); BENCH_REDOCLY=0 skips Redocly.
const PICK = (process.env.BENCH_FILES ?? "").toLowerCase().split(",").filter(Boolean);
const REDOCLY = process.env.BENCH_REDOCLY !== "0";
const PAGE_REQUESTS = Number(process.env.BENCH_PAGES ?? 200);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;

async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
}

async function publishRuns(baseUrl, token, file, api) {
  const body = readFileSync(file.path);
  const times = [];
  const reportTimes = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    // A trailing space per run gives a new hash, so every run builds and writes the whole model.
    const variant = Buffer.concat([body, Buffer.from(" ".repeat(i + 1))]);
    const t0 = performance.now();
    const [t, res] = await timed(() =>
      fetch(`${baseUrl}/v1/apis/upload?api=${api}&version=run-${i}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": file.type },
        body: variant,
      }).then(async (r) => ({ status: r.status, json: await r.json() })),
    );
    if (res.status !== 201) throw new Error(`${file.name}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
    times.push(t);
    last = res.json;
    if (res.json.lint?.status === "pending") {
      for (;;) {
        const r = await fetch(res.json.lint.url, { headers: { authorization: `Bearer ${token}` } });
        await r.arrayBuffer();
        if (r.status === 200) break;
        if (r.status !== 202) throw new Error(`${file.name}: lint report ${r.status}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      reportTimes.push(performance.now() - t0);
    }
  }
  return { times, reportTimes, last };
}

async function pageLatencies(baseUrl, versionUrl) {
  const indexTimes = [];
  for (let i = 0; i < Math.min(50, PAGE_REQUESTS); i++) {
    const [t, r] = await timed(() => fetch(versionUrl).then((r) => r.text()));
    indexTimes.push(t);
  }
  const html = await (await fetch(versionUrl)).text();
  const path = new URL(versionUrl).pathname;
  const links = [...new Set([...html.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]).filter((h) => h.startsWith(path) && h.length > path.length))];
  const opTimes = [];
  let bytes = 0;
  for (let i = 0; i < PAGE_REQUESTS; i++) {
    const href = links[(i * 7919) % links.length];
    const [t, text] = await timed(() => fetch(baseUrl + href).then((r) => r.text()));
    opTimes.push(t);
    bytes += text.length;
  }
  return { indexTimes, opTimes, avgOpBytes: bytes / PAGE_REQUESTS, indexBytes: html.length, links: links.length };
}

function redoclyBuildDocs(file) {
  const out = join(tmpdir(), `redocly-${process.pid}.html`);
  const times = [];
  for (let i = 0; i < Math.min(RUNS, 2); i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules/.bin/redocly"), "build-docs", file.path, "-o", out], { encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } });
    if (r.status !== 0) return { error: r.stderr.trim().split("\n").slice(-2).join(" ") };
    times.push(performance.now() - t0);
  }
  return { median: pct(times, 50), bytes: readFileSync(out).length };
}

export async function main() {
  console.log("== publish (issue 2): end to end through HTTP against wrangler dev ==");
  const server = await startDevServer();
  const core = await coreRunner();
  try {
    const token = await createPortal(server.baseUrl, server.adminToken, "bench");
    for (const [i, file] of FILES.entries()) {
      if (PICK.length && !PICK.some((w) => file.name.toLowerCase().includes(w))) continue;
      if (file.huge) file.path = hugeFiles()[file.huge];
      const { times, reportTimes, last } = await publishRuns(server.baseUrl, token, file, `b${i}`);
      const pages = await pageLatencies(server.baseUrl, last.url);
      const heap = core.run(file.path, 128);
      const redocly = REDOCLY ? redoclyBuildDocs(file) : { error: "skipped (BENCH_REDOCLY=0)" };
      const p50 = pct(times, 50);
      console.log(`\n${file.name}: ${last.operations} operations, ${last.schemas} schemas`);
      console.log(`  publish (HTTP, ${RUNS} runs)      p50 ${ms(p50)}  min ${ms(Math.min(...times))}  max ${ms(Math.max(...times))}  lint ${last.lint?.status ?? "in the answer"}`);
      if (reportTimes.length) console.log(`  lint report ready (after upload)  p50 ${ms(pct(reportTimes, 50))}  min ${ms(Math.min(...reportTimes))}  max ${ms(Math.max(...reportTimes))} (the version was live at the answer)`);
      console.log(`  core build peak heap (128 MB cap) ${heap.error ? `FAILED: ${heap.error}` : `${heap.peakSampledHeapMB} MB (build + model stored as the publisher does, ${heap.buildMs + heap.weighMs + heap.storeMs} ms; ${heap.storedMB} MB stored)`}`);
      console.log(`  version index                    p50 ${ms(pct(pages.indexTimes, 50))}  p95 ${ms(pct(pages.indexTimes, 95))}  ${(pages.indexBytes / 1024).toFixed(1)} KB`);
      console.log(`  operation page (${PAGE_REQUESTS} requests)   p50 ${ms(pct(pages.opTimes, 50))}  p95 ${ms(pct(pages.opTimes, 95))}  avg ${(pages.avgOpBytes / 1024).toFixed(1)} KB`);
      if (redocly.error) console.log(`  redocly build-docs               FAILED: ${redocly.error}`);
      else console.log(`  redocly build-docs               ${ms(redocly.median)} (${(redocly.bytes / 1048576).toFixed(2)} MB of HTML to every reader)  ratio redocly/portico ${(redocly.median / p50).toFixed(2)}x`);
    }
  } finally {
    core.dispose();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
