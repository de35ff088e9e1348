// Loading a huge portal's search index in a reader's isolate (issue 12): Microsoft Graph v1.0's (or beta's) index
// built once as the publisher builds it (operation documents from buildReference's slices, SearchIndexBuilder),
// cached as bytes, then loaded in a child Node under --max-old-space-size=128 the way store/search.ts loadIndex does
// (the KV parts joined into one Uint8Array). Prints, per reader: load time, heap retained by the loaded index (after
// GC, heap + ArrayBuffers), the smallest old-space cap the load completes in (the peak, as the isolate feels it),
// and query latency p50/p95 over everyday Graph queries. Retained counts what the index keeps of the stored bytes.
// Readers: `light` (loadSearchIndex on the bytes: documents kept as byte ranges, postings as typed arrays) and
// `json` (the previous load: the whole text decoded to one string and JSON.parsed; loadSearchIndex(text, { reader: "json" })).
// Usage: node bench/search-load.mjs [graph|graph-beta]
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hugeFiles } from "./lib/huge-files.mjs";
import { liftSizeLimit } from "./lib/lift-size-limit.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const NAME = process.argv[2] ?? "graph";
const OUT = join(ROOT, "node_modules/.cache/portico-search-load");
const QUERIES = [
  "list users", "get user", "send mail", "create event", "list messages", "get drive item", "upload file", "create team",
  "list group members", "add member to group", "delete calendar event", "get presence", "create subscription",
  "list channels", "send chat message", "get manager", "reset password", "list sign ins", "create application",
  "add owner", "list devices", "get schedule", "create online meeting", "list contacts", "get photo", "sharepoint site lists",
  "lisst userz", "calend", "onenote pages", "planner tasks", "todo lists", "security alerts", "conditional access policy",
];

const CHILD_BUILD = `
import { readFileSync, writeFileSync } from "node:fs";
import { buildReference, operationDocument, SearchIndexBuilder } from "./engine.mjs";
const outcome = buildReference({ body: new Uint8Array(readFileSync(process.argv[2])) });
if (!outcome.ok) { console.log(JSON.stringify(outcome).slice(0, 500)); process.exit(1); }
const builder = new SearchIndexBuilder();
const src = { api: "graph", version: "1", layout: "page-per-operation", locale: "en" };
for (const op of outcome.operations) builder.add(operationDocument(outcome.slice(op.slug), src));
const blocks = builder.finish();
const total = blocks.reduce((n, b) => n + b.byteLength, 0);
const bytes = new Uint8Array(total);
let at = 0;
for (const b of blocks) { bytes.set(b, at); at += b.byteLength; }
writeFileSync(process.argv[3], bytes);
`;

const CHILD_LOAD = `
import { readFileSync } from "node:fs";
import { loadSearchIndex } from "./engine.mjs";
const [file, reader, queries] = process.argv.slice(2);
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
// V8 frees ArrayBuffers concurrently after a GC: settle() lets it finish before memory is read.
const settle = async () => { for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 50)); } };
await settle();
const before = used();
// As store/search.ts readIndex: the KV parts joined into one Uint8Array (the loaded index may keep it: counted).
let bytes = new Uint8Array(readFileSync(file));
const storedMB = mb(bytes.byteLength);
const t0 = performance.now();
const index = reader === "json" ? loadSearchIndex(new TextDecoder().decode(bytes), { reader: "json" }) : loadSearchIndex(bytes, { reader: "light" });
const loadMs = performance.now() - t0;
bytes = undefined;
await settle();
const retainedMB = mb(used() - before);
const t1 = performance.now();
index.search("list users", { canRead: () => true });
const firstQueryMs = performance.now() - t1;
const times = [];
if (queries === "1") for (let round = 0; round < 3; round++) for (const q of ${JSON.stringify(QUERIES)}) {
  const t = performance.now();
  index.search(q, { canRead: () => true, limit: 10 });
  times.push(performance.now() - t);
}
const top = index.search("send mail", { canRead: () => true, limit: 3 }).results.map((r) => r.doc.title + " " + r.snippet.length);
console.log(JSON.stringify({ documents: index.size, storedMB, loadMs: Math.round(loadMs), retainedMB, firstQueryMs: +firstQueryMs.toFixed(1),
  p50Ms: times.length ? +pct(times, 50).toFixed(2) : undefined, p95Ms: times.length ? +pct(times, 95).toFixed(2) : undefined, top }));
`;

const run = (script, args, cap) => spawnSync(process.execPath, [`--max-old-space-size=${cap}`, "--expose-gc", join(OUT, script), ...args], { encoding: "utf8" });

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "entry.ts"), `export { buildReference } from ${JSON.stringify(join(ROOT, "worker/openapi/build.ts"))};\nexport { operationDocument } from ${JSON.stringify(join(ROOT, "worker/search/documents.ts"))};\nexport { SearchIndexBuilder, loadSearchIndex } from ${JSON.stringify(join(ROOT, "worker/search/index.ts"))};\n`);
await build({ entryPoints: [join(OUT, "entry.ts")], bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], conditions: ["import", "default"], outfile: join(OUT, "engine.mjs"), plugins: [liftSizeLimit(64 * 1024 * 1024)], logLevel: "warning" });
writeFileSync(join(OUT, "build.mjs"), CHILD_BUILD);
writeFileSync(join(OUT, "load.mjs"), CHILD_LOAD);
// The index is built once per definition (minutes for beta) and reused: the builder is not what this measures.
const indexFile = join(OUT, `${NAME}.index.txt`);
if (!existsSync(indexFile)) {
  const r = run("build.mjs", [hugeFiles()[NAME], indexFile], 2048);
  if (r.status !== 0) throw new Error(`search-load: building ${NAME}'s index failed: ${(r.stdout + r.stderr).slice(-500)}`);
}
for (const reader of ["json", "light"]) {
  const r = run("load.mjs", [indexFile, reader, "1"], 128);
  const figures = r.status === 0 ? JSON.parse(r.stdout.trim().split("\n").pop()) : { error: (r.stdout + r.stderr).trim().split("\n").slice(-2).join(" ").slice(0, 200) };
  let smallest;
  for (const cap of [128, 112, 96, 80, 64, 56, 48, 40, 32, 24, 16]) {
    if (run("load.mjs", [indexFile, reader, "0"], cap).status !== 0) break;
    smallest = cap;
  }
  console.log(`search-load ${NAME} ${reader}: ${JSON.stringify({ ...figures, smallestCapMB: smallest ?? "none ≤128" })}`);
}
