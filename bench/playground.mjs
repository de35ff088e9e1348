// Playground benchmark (issue 10): against `wrangler dev` and a prism mock of the demo API on 127.0.0.1,
// (1) the proxy's overhead: the same GET sent directly to the mock and through `POST /p/{portal}/playground/send`,
// interleaved, p50/p95 of each and of the difference; (2) in Chromium, the time from clicking the Try-it panel's
// Send to the response rendered (the button back from "Sending…", then a frame). Prints figures; asserts nothing.
// Beside them, GET /healthz through the same `wrangler dev`: what any Worker answer costs there before our code runs.
// BENCH_PLAYGROUND_CALLS (proxied and direct calls each, 60), BENCH_PLAYGROUND_CLICKS (browser sends, 30).
// The proxy's rate limit (30 calls a minute per reader) is met by giving each call its own client address
// (`CF-Connecting-IP`, which the local Worker takes from the request); a 429 stops the run with a message.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { readFolder, uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, freePort, startDevServer } from "../scripts/lib/dev-server.mjs";
import { startLocalMock, withLocalMock } from "../scripts/lib/local-mock.mjs";

const CALLS = Number(process.env.BENCH_PLAYGROUND_CALLS ?? 60);
const CLICKS = Number(process.env.BENCH_PLAYGROUND_CLICKS ?? 30);
const ROOT = new URL("..", import.meta.url).pathname;
const API = "parcel-logistics-api";
const PATH = "/parcels/pcl_Q81mZr/tracking-events?eventType=delivered";
const HEADERS = { accept: "application/json", "X-API-Key": "pl_test_bench" };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const line = (label, xs) => `  ${label.padEnd(34)} p50 ${ms(pct(xs, 50)).padStart(9)}  p95 ${ms(pct(xs, 95)).padStart(9)}  (n=${xs.length})`;

let ip = 0;
/** A fresh documentation address per call (TEST-NET-3, never routed), so the per-reader limit never trips. */
const nextIp = () => `203.0.113.${(ip++ % 250) + 1}`;

async function proxied(base, portal, mockUrl) {
  const t = performance.now();
  const res = await fetch(`${base}/p/${portal}/playground/send`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": nextIp() },
    body: JSON.stringify({ api: API, version: "2.4.0", operationId: "listTrackingEvents", method: "GET", url: mockUrl + PATH, headers: HEADERS }),
  });
  const json = await res.json();
  const total = performance.now() - t;
  if (res.status !== 200 || json.status !== 200) throw new Error(`proxy answered ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return { total, worker: json.timing.totalMs, upstream: json.timing.upstreamMs };
}

/** The floor of any Worker answer under `wrangler dev` (its proxy, workerd, no storage): GET /healthz. */
async function floor(base) {
  const t = performance.now();
  const res = await fetch(`${base}/healthz`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`healthz answered ${res.status}`);
  return performance.now() - t;
}

async function direct(mockUrl) {
  const t = performance.now();
  const res = await fetch(mockUrl + PATH, { headers: HEADERS });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`mock answered ${res.status}`);
  return performance.now() - t;
}

export async function main() {
  console.log("playground: proxy overhead and Send-to-render in Chromium (wrangler dev + prism mock, 127.0.0.1)");
  const [server, mock] = await Promise.all([startDevServer(), freePort().then((port) => startLocalMock({ port }))]);
  let browser;
  try {
    const portal = "bench-playground";
    const token = await createPortal(server.baseUrl, server.adminToken, portal);
    const definition = withLocalMock(readFileSync(`${ROOT}demo/definition.yaml`, "utf8"), Number(new URL(mock.url).port));
    const up = await fetch(`${server.baseUrl}/v1/apis/upload`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: definition });
    if (up.status >= 300) throw new Error(`publish: ${up.status} ${await up.text()}`);
    const content = await uploadContent(server.baseUrl, token, zipFiles(readFolder(`${ROOT}demo/content`)));
    if (content.status >= 300) throw new Error(`content: ${content.status}`);

    // Warm both paths (isolate, caches, prism's first compile) before measuring.
    for (let i = 0; i < 5; i++) { await direct(mock.url); await proxied(server.baseUrl, portal, mock.url); }
    const d = [], p = [], worker = [], upstream = [], added = [], empty = [];
    for (let i = 0; i < CALLS; i++) {
      const a = await direct(mock.url);
      const b = await proxied(server.baseUrl, portal, mock.url);
      empty.push(await floor(server.baseUrl));
      d.push(a); p.push(b.total); worker.push(b.worker); upstream.push(b.upstream); added.push(b.total - a);
    }
    console.log(line("direct GET to the mock", d));
    console.log(line("through the proxy (client-side)", p));
    console.log(line("proxy overhead (pairwise added)", added));
    console.log(line("  Worker's own total (timing)", worker));
    console.log(line("  of which upstream (timing)", upstream));
    console.log(line("  Worker checks (total - upstream)", worker.map((w, i) => w - upstream[i])));
    console.log(line("wrangler dev floor (GET /healthz)", empty));

    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/p/${portal}/reference/${API}/2.4.0/listtrackingevents`, { waitUntil: "networkidle" });
    await page.locator(".try-open").click();
    await page.locator(".try-form").waitFor();
    await page.locator('.try select[aria-label="Security requirement"]').selectOption({ label: "apiKey" });
    await page.locator('.try [data-scheme="apiKey"] input').fill("pl_test_bench");
    const clicks = [];
    for (let i = 0; i < CLICKS + 3; i++) {
      await context.setExtraHTTPHeaders({ "cf-connecting-ip": nextIp() });
      const t = await page.evaluate(() => new Promise((resolve, reject) => {
        const button = document.querySelector(".try-send");
        let busy = false;
        const started = performance.now();
        const observer = new MutationObserver(() => {
          if (button.disabled) busy = true;
          else if (busy) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - started));
          }
        });
        observer.observe(button, { attributes: true, childList: true, characterData: true, subtree: true });
        setTimeout(() => reject(new Error("no answer within 20 s")), 20_000);
        button.click();
      }));
      const status = await page.locator(".try-status").textContent().catch(() => null);
      if (!status?.startsWith("200")) throw new Error(`panel showed ${status ?? (await page.locator(".try-res").textContent())}`);
      if (i >= 3) clicks.push(t); // the first sends warm the panel's code paths
    }
    console.log(line("Chromium: click Send → rendered", clicks));
  } finally {
    await browser?.close();
    await Promise.all([server.stop(), mock.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
