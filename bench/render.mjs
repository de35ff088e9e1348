// Render benchmark: HTML size and server render time of operation pages and the index for real definitions
// (GitHub's REST description, ~1,000 operations, built into the reference model in-process). Prints figures;
// asserts nothing. BENCH_RENDER_OPS=n limits how many operations are rendered (default: all).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";

const ROOT = new URL("..", import.meta.url).pathname;
const FILES = [
  { name: "GitHub REST (13 MB JSON)", path: join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"), version: "3.0" },
  { name: "DigitalOcean (1.07 MB JSON)", path: join(ROOT, "../shared/corpus/apis-guru-npm/api/digitalocean.com.json"), version: "3.0" },
];
const LIMIT = Number(process.env.BENCH_RENDER_OPS ?? Infinity);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const utf8 = new TextEncoder();
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (x) => `${x.toFixed(2)} ms`;

export async function main() {
  const render = await tsImport("../worker/render/index.ts", import.meta.url);
  const model = await tsImport("../worker/openapi/model/index.ts", import.meta.url);
  console.log("render: operation pages (HTML bytes, render time per page, warm isolate)");
  for (const file of FILES) {
    const doc = JSON.parse(readFileSync(file.path, "utf8"));
    const m = model.buildModel(doc, file.version, file.version, []);
    const api = { slug: "api", title: m.header.info.title, layout: "page-per-operation" };
    const page = { portal: { slug: "acme", name: "Acme" }, basePath: "/p/acme", apis: [api], api, versions: [{ label: "1", live: true }], version: { label: "1", live: true } };
    // As the reader route's pageProps (worker/routes/reference.ts): the Authorize control (no key entered) and
    // the reader's variables (none: placeholders stay as written).
    const readerProps = { authorize: { action: "/p/acme/auth/api-key", clearAction: "/p/acme/auth/api-key/clear", returnTo: "/p/acme/reference/api/1/x" }, variables: {} };
    const ops = m.operations.slice(0, Math.min(LIMIT, m.operations.length));
    const byTag = new Map();
    for (const o of m.operations) for (const t of o.tags.length ? o.tags : [""]) byTag.set(t, [...(byTag.get(t) ?? []), o]);
    const sizes = [];
    const times = [];
    const worst = [];
    for (let pass = 0; pass < 2; pass++) {
      for (const o of ops) {
        const slice = JSON.parse(JSON.stringify(m.slice(o.slug))); // as read back from KV
        const t0 = performance.now();
        const html = render.renderOperationPage({ ...page, ...readerProps, header: m.header, slice, nav: byTag.get(o.tags[0] ?? "") ?? [], canonicalUrl: `https://x/p/acme/reference/api/1/${o.slug}`,
          // As the reader route renders it: schema bodies past the page's inline budget load on expand.
          fragmentHref: (id) => `/p/acme/reference/api/1/${o.slug}/fragments/${id}?m=0123456789abcdef` });
        const t = performance.now() - t0;
        // UTF-8 bytes as served (the budget is 60 × 1024 bytes), not UTF-16 code units.
        const bytes = utf8.encode(html).length;
        if (pass === 1) { sizes.push(bytes); times.push(t); worst.push([bytes, o.slug, t]); }
      }
    }
    worst.sort((a, b) => b[0] - a[0]);
    const t0 = performance.now();
    const index = render.renderVersionIndex({ ...page, header: m.header, operations: m.operations });
    const indexMs = performance.now() - t0;
    const over = sizes.filter((s) => s > 60 * 1024).length;
    console.log(`  ${file.name}: ${ops.length} pages`);
    console.log(`    size (UTF-8 bytes)   p50 ${kb(pct(sizes, 50))}  p95 ${kb(pct(sizes, 95))}  max ${kb(worst[0][0])} (${worst[0][1]})  over 60 KB: ${over}`);
    console.log(`    time   p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}  max ${ms(Math.max(...times))}`);
    console.log(`    largest: ${worst.slice(0, 5).map(([s, slug, t]) => `${slug} ${kb(s)} ${ms(t)}`).join(", ")}`);
    console.log(`    index  ${kb(utf8.encode(index).length)} in ${ms(indexMs)}`);
    // Single page, streamed: time to the first chunk (head + navigation) and to the end, total bytes.
    const slices = (async function* () { for (const o of m.operations) yield JSON.parse(JSON.stringify(m.slice(o.slug))); })();
    const s0 = performance.now();
    const reader = render.renderSinglePage({ ...page, api: { ...api, layout: "single-page" }, header: m.header, operations: m.operations, slices }).getReader();
    let bytes = 0;
    let firstMs = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstMs = performance.now() - s0;
      bytes += value.length;
    }
    console.log(`    single page  first chunk ${ms(firstMs)}, all ${m.operations.length} sections ${(bytes / 1048576).toFixed(1)} MB in ${ms(performance.now() - s0)} (slices built in-process)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
