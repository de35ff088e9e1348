// Search shards on the query path (issue 37), in-process: builds one shard per API (GitHub's REST description,
// Microsoft Graph v1.0 when SHARD_BIG has `graph`, then SHARD_N small and medium corpus definitions, as
// bench/portal-scale.mjs publishes them), loads them, and times what a reader's isolate does: the merge of every
// shard, the first query of each word (its postings computed on first use), the same queries warm, and after a
// "publish" (one small shard replaced) the first query again, which is what an isolate that already holds the
// other shards pays. Prints figures; asserts nothing.
//   node bench/search-shard-merge.mjs        (SHARD_N=200, SHARD_BIG=github; SHARD_BIG=github,graph adds Graph v1.0)
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { hugeFiles } from "./lib/huge-files.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = join(ROOT, "../shared/corpus");
const N = Number(process.env.SHARD_N ?? 200);
const BIG = (process.env.SHARD_BIG ?? "github").split(",").filter(Boolean);
const { buildReference } = await tsImport(join(ROOT, "worker/openapi/build.ts"), import.meta.url);
const { operationDocument } = await tsImport(join(ROOT, "worker/search/documents.ts"), import.meta.url);
const { SearchShardBuilder, addStats, emptyStats } = await tsImport(join(ROOT, "worker/search/shard-build.ts"), import.meta.url);
// SHARD_ENGINE=/path/to/another/checkout: its query path (shards.ts and what it imports) against the same shards.
const ENGINE = process.env.SHARD_ENGINE ?? ROOT;
const { loadSearchShard, mergeShards } = await tsImport(join(ENGINE, "worker/search/shards.ts"), import.meta.url);
const { concatBlocks } = await tsImport(join(ROOT, "worker/search/bytes.ts"), import.meta.url).catch(() => ({}));
// CPU time (user + system, ms) besides wall time: the machine is shared, and a loaded machine stretches wall time.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

function corpusFiles() {
  const rows = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
  return rows
    .filter((r) => r[12] === "root" && r[11] === "no" && Number(r[8]) >= 1 && Number(r[8]) <= 600)
    .map((r) => ({ path: join(CORPUS, r[0]), type: r[6] === "json" ? "application/json" : "application/yaml" }))
    .slice(0, N);
}

function join8(blocks) {
  if (concatBlocks) return concatBlocks(blocks);
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.byteLength, 0));
  let at = 0;
  for (const b of blocks) (out.set(b, at), (at += b.byteLength));
  return out;
}

/** One shard's bytes and statistics from a definition, or undefined when it does not build. */
function shardOf(api, body, contentType, label = "1") {
  // Built shards are kept in bench/.cache/shards (git-ignored) by the definition's digest, so runs that change
  // only the query path do not rebuild them.
  const key = join(ROOT, "bench/.cache/shards", `${createHash("sha256").update(body).update(`\0${api}\0${label}`).digest("hex").slice(0, 32)}`);
  if (existsSync(`${key}.bin`)) return { bytes: new Uint8Array(readFileSync(`${key}.bin`)), stats: JSON.parse(readFileSync(`${key}.json`, "utf8")) };
  const made = buildShard(api, body, contentType, label);
  if (made) (mkdirSync(join(ROOT, "bench/.cache/shards"), { recursive: true }), writeFileSync(`${key}.bin`, made.bytes), writeFileSync(`${key}.json`, JSON.stringify(made.stats)));
  return made;
}

function buildShard(api, body, contentType, label) {
  const out = buildReference({ body: new Uint8Array(body), contentType });
  if (!out.ok) return undefined;
  const builder = new SearchShardBuilder();
  for (const op of out.operations) builder.add(operationDocument(out.slice(op.slug), { api, version: label, layout: "page-per-operation", locale: "en", tags: out.header.tags }));
  const built = builder.finishShard();
  return { bytes: join8(built.blocks), stats: built.stats };
}

const t0 = performance.now();
const sources = [];
for (const name of BIG) {
  const path = name === "github" ? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json") : hugeFiles()[name];
  const s = shardOf(`big-${name}`, readFileSync(path), "application/json");
  if (s) sources.push({ api: `big-${name}`, ...s });
}
for (const [i, f] of corpusFiles().entries()) {
  const s = shardOf(`c${i}`, readFileSync(f.path), f.type);
  if (s) sources.push({ api: `c${i}`, ...s });
}
sources.sort((a, b) => (a.api < b.api ? -1 : 1));
let stats = emptyStats();
for (const s of sources) stats = addStats(stats, s.stats);
console.log(`${sources.length} shards, ${stats.documents} documents, ${(sources.reduce((n, s) => n + s.bytes.byteLength, 0) / 1048576).toFixed(1)} MB, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const t1 = performance.now();
const loaded = sources.map((s) => loadSearchShard(s.bytes));
console.log(`load every shard: ${(performance.now() - t1).toFixed(0)} ms`);

const WORDS = ["list", "create user", "delete", "pet", "repos", "token", "update status", "get order", "webhook", "search", "lisst userz", "repositry secrets", "pul reque"];
const reader = { limit: 10, canRead: () => true };
function run(index, label) {
  const first = [];
  const firstCpu = [];
  for (const q of WORDS) {
    const t = performance.now();
    const c = cpu();
    index.search(q, reader);
    first.push(performance.now() - t);
    firstCpu.push(cpu() - c);
  }
  const warm = [];
  const warmCpu = [];
  for (let r = 0; r < 10; r++) for (const q of WORDS) {
    const t = performance.now();
    const c = cpu();
    index.search(q, reader);
    warm.push(performance.now() - t);
    warmCpu.push(cpu() - c);
  }
  console.log(`${label}: first query of each word max ${Math.max(...first).toFixed(1)} ms, sum ${first.reduce((a, b) => a + b, 0).toFixed(0)} ms (CPU ${firstCpu.map((x) => x.toFixed(0)).join(", ")} ms); warm p50 ${pct(warm, 50).toFixed(2)} / p95 ${pct(warm, 95).toFixed(2)} ms (CPU ${pct(warmCpu, 50).toFixed(2)} / ${pct(warmCpu, 95).toFixed(2)} ms)`);
}

let t2 = performance.now();
let index = mergeShards(loaded, stats);
const q0 = performance.now();
index.search("list", reader);
console.log(`cold: merge ${(q0 - t2).toFixed(0)} ms, then first query ${(performance.now() - q0).toFixed(1)} ms`);
run(index, "cold isolate");

// A publish: one small API republished under a new label (its shard replaced; the others stay loaded).
const k = sources.findIndex((s) => s.api === "c7");
const re = shardOf("c7", readFileSync(corpusFiles()[7].path), corpusFiles()[7].type, "2");
const after = loaded.slice();
after[k] = loadSearchShard(re.bytes);
const stats2 = addStats(addStats(stats, sources[k].stats, -1), re.stats);
const previous = index;
// SHARD_PROF=file.cpuprofile: a CPU profile of what follows (the request path after a publish, then the first queries).
const session = process.env.SHARD_PROF || process.env.SHARD_PROF_FIRST ? new (await import("node:inspector/promises")).Session() : undefined;
if (process.env.SHARD_PROF) (session.connect(), await session.post("Profiler.enable"), await session.post("Profiler.start"));
t2 = performance.now();
const c2 = cpu();
index = mergeShards(after, stats2, previous);
const q1 = performance.now();
const c1 = cpu();
if (process.env.SHARD_PROF_FIRST) (session.connect(), await session.post("Profiler.enable"), await session.post("Profiler.start"));
index.search("list", reader);
if (process.env.SHARD_PROF_FIRST) (await import("node:fs")).writeFileSync(process.env.SHARD_PROF_FIRST, JSON.stringify((await session.post("Profiler.stop")).profile));
console.log(`after a publish: merge ${(q1 - t2).toFixed(0)} ms (CPU ${(c1 - c2).toFixed(0)}), then first query ${(performance.now() - q1).toFixed(1)} ms (CPU ${(cpu() - c1).toFixed(0)}; request path: ${(performance.now() - t2).toFixed(0)} ms)`);
run(index, "after the publish");
// The merge derived from the previous one must answer as a merge from nothing (shards.test.ts checks it on random corpora).
const fresh = mergeShards(after, stats2);
const same = WORDS.every((q) => JSON.stringify(fresh.search(q, reader).results.map((h) => [h.doc.id, h.score])) === JSON.stringify(index.search(q, reader).results.map((h) => [h.doc.id, h.score])));
console.log(`answers equal to a merge from nothing: ${same}`);
if (process.env.SHARD_PROF) (await import("node:fs")).writeFileSync(process.env.SHARD_PROF, JSON.stringify((await session.post("Profiler.stop")).profile));
