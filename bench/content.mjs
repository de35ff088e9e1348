// Content benchmark (issue 7): a bundle of 1,000 guide pages generated from real prose (the guide and changelog
// texts of ../shared/search-devset/corpus.jsonl), published end to end through POST /v1/content/upload against
// `wrangler dev`; then guide pages over HTTP (TTFB and total, HTML bytes raw and gzip), the in-process render
// time of one guide page (compile once, then renderForReader + SSR per request, as the route does), and the time
// to a guide's first paragraph visible in headless Chromium (cold context). Prints figures; asserts nothing.
// BENCH_CONTENT_PAGES (guides, 1000), BENCH_PAGES (HTTP requests, 300), BENCH_LOADS (browser loads, 5).
// The browser figure is set against the very same page saved as static files (HTML, CSS, script) and served by a
// plain Node file server (the floor any static site's output can reach), and against the same 1,000 guides built
// with VitePress (bench/vitepress-site.mjs) and served the same way. BENCH_VITEPRESS=0 skips the VitePress build.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { tsImport } from "tsx/esm/api";
import { uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { buildVitePress, serveVitePress } from "./vitepress-site.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = join(ROOT, "../shared/search-devset/corpus.jsonl");
const GUIDES = Number(process.env.BENCH_CONTENT_PAGES ?? 1000);
const REQUESTS = Number(process.env.BENCH_PAGES ?? 300);
const LOADS = Number(process.env.BENCH_LOADS ?? 5);
const LIMIT = { p95Ms: 15 };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** `count` guides from the corpus's guide and changelog texts (cycled, each page one or two texts), 20 per group. */
export function generateBundle(count) {
  const texts = readFileSync(CORPUS, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((d) => d.kind !== "endpoint" && d.body.trim().length > 40);
  const files = {};
  const groups = [];
  for (let i = 0; i < count; i++) {
    const a = texts[i % texts.length];
    const b = texts[(i * 7 + 3) % texts.length];
    const slug = `g${String(i).padStart(4, "0")}`;
    const title = `${a.title.split(" › ").pop()} (${i})`.replace(/"/g, "'");
    const tags = [a.kind, a.id.split(":")[0]];
    const next = i + 1 < count ? `\n\nNext: [the following guide](g${String(i + 1).padStart(4, "0")}.md).` : "";
    const body = `${a.body}\n\n## ${b.title.split(" › ").pop().replace(/[#\n]/g, " ")}\n\n${i >= texts.length ? b.body : ""}${next}\n`;
    files[`guides/${slug}.md`] = `---\ntitle: "${title}"\ndescription: "Generated from ${a.id.replace(/"/g, "")}"\ntags: [${tags.join(", ")}]\norder: ${i}\n---\n${body}`;
    if (i % 20 === 0) groups.push({ title: `Part ${groups.length + 1}`, items: [] });
    groups[groups.length - 1].items.push(`guides/${slug}`);
  }
  files["portico.yaml"] = `name: Bench docs\nnavigation:\n${groups.map((g) => `  - title: ${g.title}\n    items: [${g.items.join(", ")}]`).join("\n")}\n`;
  return files;
}

async function timedGet(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const ttfb = performance.now() - t0;
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return { ttfb, total: performance.now() - t0, bytes: body.length, gzip: gzipSync(body).length };
}

/** In-process: compile the bundle once, then time renderForReader + SSR of guide pages (what a request runs). */
async function inProcess(files) {
  const compile = await tsImport("../worker/content/compile.ts", import.meta.url);
  const markers = await tsImport("../worker/content/markers.ts", import.meta.url);
  const site = await tsImport("../worker/content/site.ts", import.meta.url);
  const access = await tsImport("../worker/access/reader.ts", import.meta.url);
  const pages = await tsImport("../worker/render/content/pages.tsx", import.meta.url);
  const enc = new TextEncoder();
  const t0 = performance.now();
  const release = await compile.compileBundle(new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)])), new Map());
  const compileMs = performance.now() - t0;
  const reader = access.anonymousReader("en");
  const s = new site.Site(release.config, release.pages.map((p) => p.meta), [], reader);
  const times = [];
  for (let pass = 0; pass < 2; pass++) {
    for (const { meta, page } of release.pages.slice(0, 300)) {
      const stored = JSON.parse(JSON.stringify(page));
      const t = performance.now();
      const html = markers.renderForReader(stored.html, reader, { basePath: "/p/bench", defaults: {} });
      const nb = s.neighbours("guide", meta.slug, "en");
      pages.renderGuidePage({
        shell: { site: s, basePath: "/p/bench", locale: "en", portalName: "Bench", current: `guide:${meta.slug}`, crumbs: [{ title: "Home", href: "/p/bench/" }, { title: meta.title }],
          toc: stored.toc.map((x) => ({ id: x.id, level: x.level, text: x.text })) },
        head: { title: meta.title, locale: "en" }, title: meta.title, html, tags: meta.tags, related: s.related(meta).map((p) => ({ title: p.title, href: p.slug })),
        prev: nb.prev && { title: nb.prev.title, href: nb.prev.path }, next: nb.next && { title: nb.next.title, href: nb.next.path },
      });
      if (pass === 1) times.push(performance.now() - t);
    }
  }
  return { compileMs, times, checks: release.checks };
}

/** Saves the page and its same-origin CSS and scripts, then serves them as static files (gzip, like a CDN). */
async function staticCopy(url) {
  const html = await (await fetch(url)).text();
  const origin = new URL(url).origin;
  const files = new Map([[new URL(url).pathname, { body: html, type: "text/html; charset=utf-8" }]]);
  for (const m of html.matchAll(/(?:href|src)="(\/[^"]+\.(css|js))"/g)) {
    const res = await fetch(origin + m[1]);
    files.set(m[1], { body: await res.text(), type: m[2] === "css" ? "text/css" : "text/javascript" });
    if (m[2] === "js") for (const c of (files.get(m[1]).body).matchAll(/"\.\/(chunks\/[^"]+\.js)"/g)) {
      const path = new URL(c[1], origin + m[1]).pathname;
      files.set(path, { body: await (await fetch(origin + path)).text(), type: "text/javascript" });
    }
  }
  const server = createServer((req, res) => {
    const f = files.get(req.url.split("?")[0]);
    if (!f) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "content-type": f.type, "content-encoding": "gzip" });
    res.end(gzipSync(f.body));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}${new URL(url).pathname}`, close: () => server.close() };
}

/** Cold loads in Chromium: ms from navigation start to the guide's first paragraph on screen. */
async function browserLoads(url, selector = "article.prose p") {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
  });
  const times = [];
  try {
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript((selector) => {
        const tick = () => {
          const p = document.querySelector(selector);
          const r = p?.getBoundingClientRect();
          if (r && r.height > 0 && r.top < innerHeight) window.__visibleAt = performance.now();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }, selector);
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "commit" });
      times.push(await (await page.waitForFunction(() => window.__visibleAt, null, { timeout: 30_000, polling: 50 })).jsonValue());
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return times;
}

const vitepressVersion = () => JSON.parse(readFileSync(join(ROOT, "node_modules/vitepress/package.json"), "utf8")).version;

export async function main() {
  const files = generateBundle(GUIDES);
  const zip = zipFiles(files);
  console.log(`content: ${GUIDES} guide pages generated from ${CORPUS.split("/").slice(-2).join("/")} (zip ${kb(zip.length)}, Markdown ${kb(Object.values(files).reduce((n, f) => n + f.length, 0))})`);
  const local = await inProcess(files);
  console.log(`  in-process compile of the bundle: ${ms(local.compileMs)} (${local.checks.brokenLinks.length} broken links)`);
  console.log(`  in-process guide page (reader substitution + SSR, warm): p50 ${ms(pct(local.times, 50))}  p95 ${ms(pct(local.times, 95))}  max ${ms(Math.max(...local.times))}`);

  const server = await startDevServer();
  try {
    const token = await createPortal(server.baseUrl, server.adminToken, "bench-content");
    const t0 = performance.now();
    // Real prose links to pages of its own site that the bundle does not hold: publish them as reported.
    const up = await uploadContent(server.baseUrl, token, zip, "?allowBrokenLinks=true");
    const publishMs = performance.now() - t0;
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(up.json).slice(0, 500)}`);
    console.log(`  publish end to end (HTTP, wrangler dev): ${(publishMs / 1000).toFixed(2)} s for ${up.json.pages} pages; phases ${up.serverTiming}`);
    const t1 = performance.now();
    const again = await uploadContent(server.baseUrl, token, zip, "?allowBrokenLinks=true");
    console.log(`  re-publish of the same bundle: ${again.status} ${again.json.unchanged ? "unchanged" : ""} in ${ms(performance.now() - t1)}`);

    const base = `${server.baseUrl}/p/bench-content/guides/`;
    for (let i = 0; i < 20; i++) await timedGet(`${base}g${String(i).padStart(4, "0")}`); // warm the isolate
    const runs = [];
    const baseline = [];
    // /healthz in between: what loopback + wrangler dev cost on this machine right now, to read the page figures against.
    for (let i = 0; i < REQUESTS; i++) {
      runs.push(await timedGet(`${base}g${String((i * 37) % GUIDES).padStart(4, "0")}`));
      baseline.push(await timedGet(`${server.baseUrl}/healthz`));
    }
    console.log(`\n  guide page over HTTP (${REQUESTS} requests, loopback to wrangler dev; includes miniflare's D1/KV):`);
    console.log(`    TTFB  p50 ${ms(pct(runs.map((r) => r.ttfb), 50))}  p95 ${ms(pct(runs.map((r) => r.ttfb), 95))}   total p50 ${ms(pct(runs.map((r) => r.total), 50))}  p95 ${ms(pct(runs.map((r) => r.total), 95))}   (goal p95 <= ${LIMIT.p95Ms} ms)`);
    console.log(`    /healthz (no D1/KV, no render) on the same server, interleaved: total p50 ${ms(pct(baseline.map((r) => r.total), 50))}  p95 ${ms(pct(baseline.map((r) => r.total), 95))}`);
    console.log(`    HTML  p50 ${kb(pct(runs.map((r) => r.bytes), 50))}  p95 ${kb(pct(runs.map((r) => r.bytes), 95))}   gzip p50 ${kb(pct(runs.map((r) => r.gzip), 50))}  p95 ${kb(pct(runs.map((r) => r.gzip), 95))}`);

    const middle = `${base}g${String(Math.floor(GUIDES / 2)).padStart(4, "0")}`;
    const visible = await browserLoads(middle);
    const copy = await staticCopy(middle);
    let still;
    try {
      still = await browserLoads(copy.url);
    } finally {
      copy.close();
    }
    console.log(`\n  browser: guide text visible after navigation (headless Chromium, cold context, median of ${LOADS} loads):`);
    console.log(`    Portico (wrangler dev, rendered per request)  ${ms(pct(visible, 50))}  (max ${ms(Math.max(...visible))})`);
    console.log(`    same page as static files (Node file server)  ${ms(pct(still, 50))}  (max ${ms(Math.max(...still))})   goal: Portico no later`);
    if (process.env.BENCH_VITEPRESS !== "0") {
      const buildMs = await buildVitePress(files);
      const site = await serveVitePress();
      try {
        const path = `/guides/g${String(Math.floor(GUIDES / 2)).padStart(4, "0")}`;
        const page = await timedGet(site.origin + path);
        const vp = await browserLoads(site.origin + path, ".vp-doc p");
        console.log(`    VitePress ${vitepressVersion()} build as static files     ${ms(pct(vp, 50))}  (max ${ms(Math.max(...vp))})   HTML ${kb(page.bytes)}, gzip ${kb(page.gzip)}; build step ${(buildMs / 1000).toFixed(1)} s for ${GUIDES} guides`);
      } finally {
        site.close();
      }
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
