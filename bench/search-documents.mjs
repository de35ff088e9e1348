// The dev set over the documents Portico itself derives, in-process (no server): the same definitions and content
// bundle bench/search.mjs publishes, built with worker/openapi + worker/content, turned into SearchDocuments by
// worker/search/documents*.ts, indexed and queried by the engine; results mapped back to corpus ids the same way.
// For iterating on document extraction in seconds; bench/search.mjs is the measurement (over HTTP).
//   node bench/search-documents.mjs [--fails]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { zipSync } from "fflate";
import { tsImport } from "tsx/esm/api";
import { contentBundle, twilioDefinition } from "./search.mjs";
const ROOT = new URL("..", import.meta.url).pathname;
const { buildReference } = await tsImport(join(ROOT, "worker/openapi/build.ts"), import.meta.url);
const { operationDocument } = await tsImport(join(ROOT, "worker/search/documents.ts"), import.meta.url);
const { releaseDocuments } = await tsImport(join(ROOT, "worker/search/documents-content.ts"), import.meta.url);
const { compileBundle } = await tsImport(join(ROOT, "worker/content/compile.ts"), import.meta.url);
const { buildSearchIndex, loadSearchIndex } = await tsImport(join(ROOT, "worker/search/index.ts"), import.meta.url);
const readJsonl = (p) => readFileSync(p, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const docs = readJsonl(join(ROOT, "../shared/search-devset/corpus.jsonl"));
const queries = readJsonl(join(ROOT, "../shared/search-devset/queries.jsonl"));
function folderFiles(dir) { const files = {}; const walk = (d) => { for (const n of readdirSync(d)) { const f = join(d, n); if (statSync(f).isDirectory()) walk(f); else files[relative(dir, f)] = new Uint8Array(readFileSync(f)); } }; walk(dir); return files; }
const enc = new TextEncoder();
const sources = [
  ["digitalocean", zipSync(folderFiles(join(ROOT, "../shared/corpus/digitalocean/specification"))), "application/zip", "DigitalOcean-public.v2.yaml"],
  ["slack", readFileSync(join(ROOT, "../shared/corpus/slack/web-api/slack_web_openapi_v2.json")), "application/json"],
  ["twilio", enc.encode(JSON.stringify(twilioDefinition(docs.filter((d) => d.id.startsWith("twilio:") && d.kind === "endpoint")))), "application/json"],
];
const all = [];
for (const [api, body, contentType, root] of sources) {
  const out = buildReference({ body: new Uint8Array(body), contentType, root });
  if (!out.ok) throw new Error(api + out.message);
  for (const op of out.operations) all.push(operationDocument(out.slice(op.slug), { api, version: "1", layout: "page-per-operation", locale: "en" }));
}
const bundle = contentBundle(docs);
const files = new Map(Object.entries(bundle.files).map(([k, v]) => [k, enc.encode(v)]));
const release = await compileBundle(files, new Map());
all.push(...releaseDocuments(release.pages, release.glossary, release.config));
const byUrl = new Map();
for (const [slug, p] of bundle.guideSlugs) {
  const page = release.pages.find((x) => x.meta.slug === slug && x.meta.kind === "guide");
  if (p.intro) byUrl.set(`/guides/${slug}`, p.intro.id); else if (p.sections[0]) byUrl.set(`/guides/${slug}`, p.sections[0].id);
  let s = -1;
  for (const t of page.page.toc) { if (t.level === 2) s++; if (p.sections[s]) byUrl.set(`/guides/${slug}#${t.id}`, p.sections[s].id); }
}
for (const [slug, id] of bundle.changelogIds) byUrl.set(`/changelog#${slug}`, id);
const idOf = (d) => d.kind === "operation" ? `${d.api === "digitalocean" ? "do" : d.api}:${d.fields.operationId}` : byUrl.get(d.url);
let t = performance.now();
const index = loadSearchIndex(buildSearchIndex(all));
console.log(`${all.length} docs, build+load ${(performance.now() - t).toFixed(0)} ms`);
const kinds = {};
const fails = [];
for (const q of queries) {
  const ids = [...new Set(index.search(q.q, { limit: 10, canRead: () => true }).results.map((h) => idOf(h.doc)).filter(Boolean))];
  const r = ids.findIndex((id) => q.relevant.includes(id)) + 1;
  (kinds[q.kind] ??= []).push(r); (kinds.all ??= []).push(r);
  if (r !== 1) fails.push(`${q.kind} | ${q.q} | want ${q.target} | got ${ids.slice(0, 2).join(", ")}`);
}
for (const [k, rs] of Object.entries(kinds)) console.log(k.padEnd(12), "s@1", (100 * rs.filter((r) => r === 1).length / rs.length).toFixed(1), "s@5", (100 * rs.filter((r) => r >= 1 && r <= 5).length / rs.length).toFixed(1));
if (process.argv.includes("--fails")) console.log(fails.join("\n"));
