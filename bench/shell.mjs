// Reader shell benchmark (issue 33, BENCH_ONLY=shell): the demo (demo/definition.yaml 2.3.0 then 2.4.0, and
// demo/content) published to `wrangler dev`, then per reader page type the HTML bytes (raw and gzip) and the
// server time p50/p95 over BENCH_SHELL_REQUESTS (20) sequential GETs. Reader pages send no Server-Timing, so the
// server time is the wall time of the HTTP request on 127.0.0.1 (first byte, and whole body). Then Lighthouse
// (npm `lighthouse`, driving Debian's Chromium, its default mobile form factor) on the guide and operation pages:
// performance and accessibility scores. Prints figures; asserts nothing. BENCH_LIGHTHOUSE=0 skips Lighthouse.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parseDocument } from "yaml";
import { readFolder, uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { withLocalMock } from "../scripts/lib/local-mock.mjs";
import { readerPageTypes } from "../scripts/lib/page-types.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const REQUESTS = Number(process.env.BENCH_SHELL_REQUESTS ?? 20);
const PORTAL = "demo";
const SINGLE = "demo-single";
const API = "parcel-logistics-api";
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
// Offline, and nothing of Chromium's own (updates, field trials) competing with the page.
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

/** Page type → path: the page types test/e2e/a11y.test.ts judges, on the demo as `npm start` publishes it. */
const PAGE_TYPES = readerPageTypes({ portal: PORTAL, single: SINGLE, api: API, version: "2.4.0", singleApi: "parcels", singleVersion: "2.4.0" });
const LIGHTHOUSE_PAGES = ["guide", "operation"];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (x) => `${x.toFixed(1)} ms`;

/** POSTs a definition (YAML) to /v1/apis/upload; throws on a failed publish. */
async function publish(baseUrl, token, text, query = "") {
  const res = await fetch(`${baseUrl}/v1/apis/upload${query}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: text });
  if (res.status >= 300) throw new Error(`publish ${query}: ${res.status} ${await res.text()}`);
}

/** The demo as scripts/start.mjs publishes it (2.3.0 without pickups, then 2.4.0, then the content), plus a
 * second portal whose API uses the single-page layout. */
async function publishDemo(baseUrl, adminToken) {
  const definition = withLocalMock(readFileSync(join(ROOT, "demo/definition.yaml"), "utf8"));
  const token = await createPortal(baseUrl, adminToken, PORTAL);
  // The previous version, as start.mjs's previousDefinition builds it, so the changes page has a diff to show.
  const previous = parseDocument(definition);
  previous.setIn(["info", "version"], "2.3.0");
  for (const path of ["/pickups", "/pickups/{pickupId}"]) previous.deleteIn(["paths", path]);
  await publish(baseUrl, token, previous.toString(), `?api=${API}&version=2.3.0`);
  await publish(baseUrl, token, definition);
  const content = await uploadContent(baseUrl, token, zipFiles(readFolder(join(ROOT, "demo/content"))));
  if (content.status >= 300) throw new Error(`content: ${content.status} ${JSON.stringify(content.json)}`);
  const single = await createPortal(baseUrl, adminToken, SINGLE);
  await publish(baseUrl, single, definition, "?api=parcels");
  const res = await fetch(`${baseUrl}/v1/apis/parcels`, { method: "PATCH", headers: { authorization: `Bearer ${single}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }) });
  if (!res.ok) throw new Error(`layout: ${res.status}`);
}

/** `REQUESTS` sequential GETs of `url` after one warm-up: status, bytes, gzip bytes, first-byte and total ms. */
async function measure(url) {
  await (await fetch(url)).arrayBuffer(); // warm-up: the isolate's caches (release, labels) are not what we time
  const ttfb = [];
  const total = [];
  let status = 0;
  let body = Buffer.alloc(0);
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    ttfb.push(performance.now() - t0);
    body = Buffer.from(await res.arrayBuffer());
    total.push(performance.now() - t0);
    status = res.status;
  }
  return { status, bytes: body.length, gzip: gzipSync(body).length, ttfb, total };
}

/** Lighthouse's performance and accessibility scores (0–100) for each URL, mobile (its default), one Chromium. */
async function lighthouseScores(urls) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const scores = [];
  try {
    for (const url of urls) {
      const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] });
      const { categories, audits } = result.lhr;
      const failed = Object.values(categories.accessibility.auditRefs).map((r) => audits[r.id]).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
        // The audit's id and the first few elements it names: what to fix, without opening the report.
        .map((a) => `${a.id} (${(a.details?.items ?? []).slice(0, 4).map((i) => i.node?.selector ?? "?").join(" | ")})`);
      scores.push({
        url,
        performance: Math.round(categories.performance.score * 100),
        accessibility: Math.round(categories.accessibility.score * 100),
        fcp: audits["first-contentful-paint"].displayValue,
        lcp: audits["largest-contentful-paint"].displayValue,
        tbt: audits["total-blocking-time"].displayValue,
        cls: audits["cumulative-layout-shift"].displayValue,
        failed,
        runtimeError: result.lhr.runtimeError?.message,
      });
    }
  } finally {
    await chrome.kill();
  }
  return scores;
}

export async function main() {
  // The pages' CSS and scripts (dist/client) are what Lighthouse loads: built from this checkout, as `npm test` does.
  execFileSync(process.execPath, [join(ROOT, "scripts/build-client.mjs")], { cwd: ROOT, stdio: "ignore" });
  const server = await startDevServer();
  try {
    await publishDemo(server.baseUrl, server.adminToken);
    console.log(`shell: reader pages of the demo under wrangler dev (local), ${REQUESTS} sequential GETs each after one warm-up; server time = HTTP wall time on 127.0.0.1 (no Server-Timing on reader pages)`);
    console.log(`  ${"page type".padEnd(24)} ${"status".padStart(6)} ${"HTML".padStart(9)} ${"gzip".padStart(8)} ${"TTFB p50".padStart(10)} ${"total p50".padStart(10)} ${"total p95".padStart(10)}`);
    for (const [name, path] of PAGE_TYPES) {
      const r = await measure(server.baseUrl + path);
      console.log(`  ${name.padEnd(24)} ${String(r.status).padStart(6)} ${kb(r.bytes).padStart(9)} ${kb(r.gzip).padStart(8)} ${ms(pct(r.ttfb, 50)).padStart(10)} ${ms(pct(r.total, 50)).padStart(10)} ${ms(pct(r.total, 95)).padStart(10)}`);
    }
    if (process.env.BENCH_LIGHTHOUSE === "0") return;
    const urls = LIGHTHOUSE_PAGES.map((name) => server.baseUrl + PAGE_TYPES.find(([n]) => n === name)[1]);
    let scores;
    try {
      scores = await lighthouseScores(urls);
    } catch (error) {
      console.log(`  lighthouse: could not run (${error?.message ?? error})`);
      return;
    }
    const version = JSON.parse(readFileSync(join(ROOT, "node_modules/lighthouse/package.json"), "utf8")).version;
    console.log(`shell: Lighthouse ${version} (mobile form factor, simulated throttling; ${CHROMIUM} headless)`);
    for (const [i, s] of scores.entries()) {
      if (s.runtimeError) console.log(`  ${LIGHTHOUSE_PAGES[i].padEnd(10)} runtime error: ${s.runtimeError}`);
      console.log(`  ${LIGHTHOUSE_PAGES[i].padEnd(10)} performance ${String(s.performance).padStart(3)}  accessibility ${String(s.accessibility).padStart(3)}  (FCP ${s.fcp}, LCP ${s.lcp}, TBT ${s.tbt}, CLS ${s.cls})${s.failed.length ? `  failed: ${s.failed.join("; ")}` : ""}`);
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
