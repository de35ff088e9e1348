// Issue 12: what an operation page costs to read from the stored model (model v3: the slice's chunk plus the target
// chunks it reaches, resolved into `refs`) beside what it costs to render, in-process. The model is stored through
// store/models.ts putSlices into an in-memory KV stand-in (a Map: no I/O measured, only the parsing and
// resolving); 200 pages spread over the definition are read (getSlice) and rendered. Prints p50/p95 of each and
// how many targets a page reaches. Asserts nothing.
// Usage: node bench/model-read.mjs [file|graph|graph-beta]   (default: GitHub's REST description)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { hugeFiles } from "./lib/huge-files.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const ARG = process.argv[2] ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const FILE = ARG === "graph" || ARG === "graph-beta" ? hugeFiles()[ARG] : ARG;
const PAGES = 200;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const f1 = (x) => x.toFixed(1);

/** Reads and renders PAGES operation pages of `file` from its stored model; prints the figures. */
export async function main(file = FILE) {
  const { buildReference } = await tsImport("../worker/openapi/build.ts", import.meta.url);
  const { putSlices, getSlice } = await tsImport("../worker/store/models.ts", import.meta.url);
  const render = await tsImport("../worker/render/index.ts", import.meta.url);
  const outcome = buildReference({ body: new Uint8Array(readFileSync(file)) });
  if (!outcome.ok) throw new Error(`${file}: ${outcome.message}`);
  const store = new Map();
  const kv = { put: async (k, v) => void store.set(k, v), get: async (k) => store.get(k) ?? null };
  const slugs = outcome.operations.map((o) => o.slug);
  const { locations } = await putSlices(kv, "m/bench", slugs, (s) => outcome.slice(s));
  const api = { slug: "api", title: outcome.header.info.title, layout: "page-per-operation" };
  const page = { portal: { slug: "acme", name: "Acme" }, basePath: "/p/acme", apis: [api], api, versions: [{ label: "1", live: true }], version: { label: "1", live: true } };
  const read = [], rendered = [], reach = [];
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < Math.min(PAGES, slugs.length); i++) {
      const slug = slugs[(i * 7919) % slugs.length];
      let t0 = performance.now();
      const slice = await getSlice(kv, "m/bench", locations.get(slug));
      const readMs = performance.now() - t0;
      t0 = performance.now();
      render.renderOperationPage({ ...page, header: outcome.header, slice, nav: [], fragmentHref: (id) => `/p/acme/reference/api/1/${slug}/fragments/${id}?m=0` });
      // The second pass is measured (warm: modules compiled, chunk cache filled as a warm isolate's would be).
      if (pass === 1) { read.push(readMs); rendered.push(performance.now() - t0); reach.push(Object.keys(slice.refs).length); }
    }
  }
  console.log(`model-read: ${file.split("/").pop()}, ${read.length} operation pages (in-process, warm)`);
  console.log(`  read + resolve targets  p50 ${f1(pct(read, 50))} ms  p95 ${f1(pct(read, 95))} ms  (targets per page p50 ${pct(reach, 50)}, p95 ${pct(reach, 95)}, max ${Math.max(...reach)})`);
  console.log(`  render                  p50 ${f1(pct(rendered, 50))} ms  p95 ${f1(pct(rendered, 95))} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
