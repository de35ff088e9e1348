// Render benchmark against peers (issue 3), on GitHub's REST description: Portico's server figures through HTTP
// against `wrangler dev` (operation page TTFB/total and HTML bytes over random operations; the single page's time
// to first and last byte), then, in headless Chromium, the time from navigation to an operation's content being
// visible when a reader opens its link, for Portico and for Redoc, Scalar's API reference and Swagger UI (npm
// packages served gzipped by a local server), with the compressed bytes each one downloads. Prints figures;
// asserts nothing. BENCH_PAGES (operation requests, 200), BENCH_LOADS (cold loads per renderer, 3),
// BENCH_PEER_CAP_S (give-up time per load, 90).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { servePeers } from "./render-peers-server.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const SPEC = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const PAGES = Number(process.env.BENCH_PAGES ?? 200);
const LOADS = Number(process.env.BENCH_LOADS ?? 3);
const CAP_MS = Number(process.env.BENCH_PEER_CAP_S ?? 90) * 1000;
/** The operation a reader opens: GitHub's "Get a repository". */
const OP = { tag: "repos", operationId: "repos/get", method: "GET", path: "/repos/{owner}/{repo}", summary: "Get a repository", slug: "repos-get" };
const HEADINGS = "h1,h2,h3,h4";
const LIMIT = { opP50Ms: 20, opBytes: 60 * 1024, speedup: 15 };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n) => `${(n / 1048576).toFixed(2)} MB`;

let retries = 0;

/**
 * Runs `fn`, again (up to twice, after a second) when it fails: `wrangler dev` restarts the Worker whenever a
 * file of the tree changes, which cuts requests in flight. Retries are counted and reported.
 */
async function withRetry(fn) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= 2) throw e;
      retries++;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Requests a URL; TTFB is when the headers arrive, total when the body has been read. */
function timedGet(url) {
  return withRetry(async () => {
    const t0 = performance.now();
    const res = await fetch(url);
    const ttfb = performance.now() - t0;
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    const total = performance.now() - t0;
    return { ttfb, total, bytes: body.byteLength, gzip: gzipSync(new Uint8Array(body)).length };
  });
}

/** A deterministic sample of `n` items (xorshift; the same operations every run). */
function sample(items, n) {
  let x = 2463534242;
  const out = [];
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    out.push(items[(x >>> 0) % items.length]);
  }
  return out;
}

function publishGitHub(baseUrl, token) {
  return withRetry(async () => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/v1/apis/upload?api=github&version=1`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: readFileSync(SPEC),
    });
    const json = await res.json();
    // 200: the same file was already published (a retry after a restart cut the first answer).
    if (res.status !== 201 && res.status !== 200) throw new Error(`publish: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return { ...json, ms: performance.now() - t0 };
  });
}

async function operationPages(baseUrl, versionUrl) {
  const index = await (await fetch(versionUrl)).text();
  const path = new URL(versionUrl).pathname;
  const slugs = [...new Set([...index.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]).filter((h) => h.startsWith(path) && h.length > path.length))];
  for (const href of sample(slugs, 20)) await timedGet(baseUrl + href); // warm the isolate, not counted
  const runs = [];
  for (const href of sample(slugs.slice().reverse(), PAGES)) runs.push(await timedGet(baseUrl + href));
  return { operations: slugs.length, runs };
}

async function singlePage(baseUrl, token, versionUrl) {
  await withRetry(async () => {
    const res = await fetch(`${baseUrl}/v1/apis/github`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ layout: "single-page" }),
    });
    if (!res.ok) throw new Error(`PATCH layout: ${res.status} ${await res.text()}`);
  });
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await timedGet(versionUrl));
  return runs;
}

/**
 * Installed before any page script: on every animation frame, checks whether an element matching `selector`
 * whose text is `text` has a box inside the viewport, and records `performance.now()` (ms since navigation
 * start) the first time it does.
 */
function visibilityProbe({ selector, text }) {
  const visible = () => {
    for (const el of document.querySelectorAll(selector)) {
      if (el.textContent.trim() !== text) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth) return true;
    }
    return false;
  };
  const tick = () => {
    if (document.body && visible()) window.__visibleAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Compressed bytes of every HTTP response; a response sent without content-encoding counts as its gzip size. */
async function compressedBytes(responses) {
  let total = 0;
  for (const r of responses) {
    try {
      const sizes = await r.request().sizes();
      total += (await r.headerValue("content-encoding")) ? sizes.responseBodySize : gzipSync(await r.body()).length;
    } catch {} // aborted or redirected without a body
  }
  return total;
}

/** One cold load in a fresh context: ms from navigation start to the operation visible (or null), and bytes. */
async function coldLoad(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(visibilityProbe, { selector, text: OP.summary });
    const page = await context.newPage();
    const responses = [];
    page.on("response", (r) => { if (r.url().startsWith("http")) responses.push(r); });
    const nav = await page.goto(url, { waitUntil: "commit", timeout: CAP_MS });
    if (nav && nav.status() >= 400) throw new Error(`${url}: ${nav.status()}`);
    let visibleMs = null;
    try {
      visibleMs = await (await page.waitForFunction(() => window.__visibleAt, null, { timeout: CAP_MS, polling: 50 })).jsonValue();
    } catch {}
    await page.waitForLoadState("load", { timeout: 5000 }).catch(() => {});
    return { visibleMs, bytes: await compressedBytes(responses) };
  } finally {
    await context.close();
  }
}

/** `LOADS` cold loads (one when the first never shows the operation); median time, median bytes. */
async function measure(browser, url, selector) {
  const loads = [];
  for (let i = 0; i < LOADS; i++) {
    const load = await withRetry(() => coldLoad(browser, url, selector));
    loads.push(load);
    if (load.visibleMs === null) break;
  }
  const times = loads.map((l) => l.visibleMs);
  return { visibleMs: times.includes(null) ? null : pct(times, 50), times, bytes: pct(loads.map((l) => l.bytes), 50) };
}

function peerRows(peerBase) {
  return [
    { name: `Redoc ${peerBase.versions.redoc}`, url: `${peerBase.url}/redoc.html#tag/${OP.tag}/operation/${OP.operationId}`, selector: HEADINGS },
    { name: `Scalar API Reference ${peerBase.versions.scalar}`, url: `${peerBase.url}/scalar.html#tag/${OP.tag}/${OP.method}${OP.path}`, selector: HEADINGS },
    // Swagger UI's own link for this operation; it splits the hash on "/", so an operationId with one (all of
    // GitHub's have one) cannot be addressed, and the link opens no operation.
    { name: `Swagger UI ${peerBase.versions.swagger}`, url: `${peerBase.url}/swagger.html#/${OP.tag}/${OP.operationId}`, selector: ".opblock.is-open .opblock-summary-description" },
  ];
}

export async function main() {
  console.log("== render-peers (issue 3): GitHub REST description, Portico vs Redoc, Scalar, Swagger UI ==");
  const started = performance.now();
  const server = await startDevServer();
  let peers;
  let browser;
  try {
    const token = await createPortal(server.baseUrl, server.adminToken, "bench");
    const published = await publishGitHub(server.baseUrl, token);
    console.log(`published ${published.operations} operations in ${(published.ms / 1000).toFixed(1)} s (wrangler dev, local)`);
    const versionUrl = published.url;
    const pages = await operationPages(server.baseUrl, versionUrl);
    const sizes = pages.runs.map((r) => r.bytes);
    console.log(`\nserver (HTTP against wrangler dev, ${pages.runs.length} requests over ${pages.operations} operation pages, sampled)`);
    console.log(`  operation page  TTFB p50 ${ms(pct(pages.runs.map((r) => r.ttfb), 50))}  p95 ${ms(pct(pages.runs.map((r) => r.ttfb), 95))}  total p50 ${ms(pct(pages.runs.map((r) => r.total), 50))}  p95 ${ms(pct(pages.runs.map((r) => r.total), 95))}   (target p50 <= ${LIMIT.opP50Ms} ms)`);
    console.log(`  operation page  HTML p50 ${kb(pct(sizes, 50))}  p95 ${kb(pct(sizes, 95))}  max ${kb(Math.max(...sizes))}  over 60 KB: ${sizes.filter((s) => s > LIMIT.opBytes).length}/${sizes.length}   (target <= 60 KB)`);
    console.log(`  operation page  gzip p50 ${kb(pct(pages.runs.map((r) => r.gzip), 50))}  p95 ${kb(pct(pages.runs.map((r) => r.gzip), 95))}`);

    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      // Nothing leaves the machine: other hosts fail at once instead of waiting on DNS.
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
    });
    const opUrl = `${versionUrl}${OP.slug}`;
    const portico = await measure(browser, opUrl, HEADINGS);

    const single = await singlePage(server.baseUrl, token, versionUrl);
    console.log(`  single page     TTFB ${ms(pct(single.map((r) => r.ttfb), 50))}  last byte ${ms(pct(single.map((r) => r.total), 50))}  ${mb(single[0].bytes)} of HTML, ${mb(single[0].gzip)} gzipped (median of ${single.length})`);
    const portSingle = await measure(browser, `${versionUrl}#${OP.slug}`, HEADINGS);

    peers = await servePeers(SPEC);
    const rows = [{ name: "Portico operation page", ...portico }, { name: "Portico single page (#fragment)", ...portSingle }];
    for (const peer of peerRows(peers)) rows.push({ name: peer.name, ...(await measure(browser, peer.url, peer.selector)) });

    console.log(`\nbrowser: "${OP.summary}" (${OP.method} ${OP.path}) visible after opening its link; headless Chromium, cold context, 1280x800, median of up to ${LOADS} loads`);
    console.log(`  ${"renderer".padEnd(34)}${"downloaded (gzip)".padStart(18)}${"visible after".padStart(16)}${"vs Portico op".padStart(18)}   loads`);
    for (const r of rows) {
      const shown = r.visibleMs === null ? `not in ${CAP_MS / 1000} s` : ms(r.visibleMs);
      const ratio = r === rows[0] ? "1.0x" : r.visibleMs === null ? `> ${(CAP_MS / portico.visibleMs).toFixed(0)}x` : `${(r.visibleMs / portico.visibleMs).toFixed(1)}x`;
      const loads = r.times.map((t) => (t === null ? "-" : t.toFixed(0))).join(", ");
      console.log(`  ${r.name.padEnd(34)}${(r.bytes > 1048576 ? mb(r.bytes) : kb(r.bytes)).padStart(18)}${shown.padStart(16)}${ratio.padStart(18)}   ${loads}`);
    }
    const fastest = rows.slice(2).filter((r) => r.visibleMs !== null).sort((a, b) => a.visibleMs - b.visibleMs)[0];
    if (fastest && portico.visibleMs) console.log(`  fastest peer ${fastest.name}: Portico's operation link is visible ${(fastest.visibleMs / portico.visibleMs).toFixed(1)}x sooner (target >= ${LIMIT.speedup}x)`);
    console.log("  Redocly's prerendered build-docs is not measured: its HTML holds only the intro and hydrates with Redoc 3.0.1 from a CDN (not installable, no internet here).");
    if (retries > 0) console.log(`  (${retries} request(s) or load(s) retried: wrangler dev restarted the Worker after a file change)`);
    console.log(`\nrender-peers took ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await browser?.close();
    await peers?.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
