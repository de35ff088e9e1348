// Issue 12: does the Worker / PortalPublisher isolate keep memory across huge publishes? Under `wrangler dev
// --inspector-port`, N publishes of new bytes of one file as new versions of one API (as a team's CI does), each
// followed by reading operation pages and search queries (the per-isolate caches: model chunks and headers, loaded
// search indexes, …); after each round the isolate's JS heap after a forced full GC (CDP
// HeapProfiler.collectGarbage + Runtime.getHeapUsage, bench/lib/isolate-heap.mjs; locally the Worker and its
// Durable Objects share that one isolate) and the workerd processes' RSS (which also holds miniflare's KV, R2 and D1).
// Opt-in (minutes; not in `npm run bench`):
//   node bench/huge-memory.mjs    BENCH_MEM_FILES=github,graph-v1.0 (default github; also graph-beta),
//   BENCH_MEM_ROUNDS=n publishes per file (default 5), BENCH_PAGES=n operation pages per round (default 200),
//   BENCH_MEM_QUERIES=n search queries per round (default 40), BENCH_MEM_SNAPSHOT=dir writes heap snapshots after the
//   first and the last round there (open them in DevTools' Memory tab, "Comparison"; on 2026-11-26 workerd restarted
//   itself soon after writing a 41 MB snapshot, so the rounds after one are not comparable), BENCH_HUGE_VERBOSE=1
//   shows wrangler dev's output.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPortal, freePort, startDevServer } from "../scripts/lib/dev-server.mjs";
import { connectIsolate } from "./lib/isolate-heap.mjs";
import { uploadFile as upload } from "./lib/upload-file.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const FILES = {
  github: join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json"),
  "graph-v1.0": join(ROOT, "bench/.cache/package/api/microsoft.com/graph.json"),
  "graph-beta": join(ROOT, "bench/.cache/package/api/microsoft.com/graph-beta.json"),
};
const ROUNDS = Math.max(1, Number(process.env.BENCH_MEM_ROUNDS ?? 5));
const PAGES = Number(process.env.BENCH_PAGES ?? 200);
const QUERIES = Number(process.env.BENCH_MEM_QUERIES ?? 40);
const WORDS = ["user", "repository", "list", "create", "delete", "update", "issue", "pull request", "team", "message", "calendar", "group", "drive item", "mail folder", "webhook", "token", "secret", "release", "commit", "event", "attachment", "contact", "device", "policy", "schedule", "site", "channel", "member", "permission", "workflow"];

/**
 * RSS of the workerd processes under `pid` (wrangler dev's process group), from /proc: "N MB (anonymous A MB)", the
 * anonymous part being memory the processes allocated (JS heaps, ArrayBuffers, miniflare's caches, malloc's free
 * lists), the rest mapped files (binary, SQLite storage); "n/a" off Linux.
 */
function workerdRss(pid) {
  if (!existsSync("/proc")) return "n/a";
  let total = 0;
  let anon = 0;
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push({ pid: Number(entry), comm });
    } catch {}
  }
  const walk = (p) => {
    for (const c of children.get(p) ?? []) {
      if (c.comm.startsWith("workerd")) {
        const status = readFileSync(`/proc/${c.pid}/status`, "utf8");
        total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
        anon += Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      }
      walk(c.pid);
    }
  };
  walk(pid);
  return `${Math.round(total)} MB (anonymous ${Math.round(anon)} MB)`;
}

/** Operation page links of a published version's index page. */
async function operationLinks(url) {
  const html = await (await fetch(url)).text();
  const path = new URL(url).pathname;
  return [...new Set([...html.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]).filter((h) => h.startsWith(path) && h.length > path.length))];
}

export async function main() {
  const names = (process.env.BENCH_MEM_FILES ?? "github").split(",").filter(Boolean);
  const snapshotDir = process.env.BENCH_MEM_SNAPSHOT;
  if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "portico-huge-memory-"));
  const inspectorPort = await freePort();
  const server = await startDevServer({ quiet: !process.env.BENCH_HUGE_VERBOSE, inspectorPort });
  // Exiting (a signal, an error) stops wrangler dev too: it runs in a process group of its own.
  process.on("exit", () => {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));
  const isolate = await connectIsolate(inspectorPort, () => fetch(`${server.baseUrl}/healthz`).then((r) => r.arrayBuffer()));
  console.log(`huge-memory: ${ROUNDS} publishes of new bytes per file as new versions of one API, each followed by ${PAGES} operation pages and ${QUERIES} search queries; the Worker isolate's heap after a forced GC, and workerd's RSS`);
  try {
    const token = await createPortal(server.baseUrl, server.adminToken, "mem");
    await fetch(`${server.baseUrl}/healthz`);
    const start = await isolate.heap();
    console.log(`  start: heap ${start.usedMB} MB used + ArrayBuffers ${start.buffersMB} MB = ${start.liveMB} MB live (${start.totalMB} MB of heap allocated); workerd RSS ${workerdRss(server.pid)}`);
    for (const name of names) {
      const file = FILES[name];
      if (!file || !existsSync(file)) {
        console.log(`  ${name}: no such file (${file ?? "unknown name"}; bench/huge.mjs fetches the Graph files)`);
        continue;
      }
      const original = readFileSync(file);
      const api = name.replace(/[^a-z0-9]+/g, "-");
      for (let round = 1; round <= ROUNDS; round++) {
        // New bytes each round (trailing newlines): a new sha256, so a new model whose chunks are all written.
        const bytes = join(dir, `round-${round}.json`);
        writeFileSync(bytes, Buffer.concat([original, Buffer.from("\n".repeat(round))]));
        const t0 = performance.now();
        const res = await upload(`${server.baseUrl}/v1/apis/upload?api=${api}&version=r${round}`, token, bytes).catch((e) => ({ status: 0, json: { error: { code: "client", message: e.message } } }));
        const publishS = ((performance.now() - t0) / 1000).toFixed(1);
        rmSync(bytes, { force: true });
        // A body past 2 MiB is linted after the answer, the build still held: wait for the report (≤ 60 s).
        for (let i = 0; res.status === 201 && i < 120; i++) {
          const lint = await fetch(`${server.baseUrl}/v1/apis/${api}/versions/r${round}/lint`, { headers: { authorization: `Bearer ${token}` } });
          await lint.arrayBuffer();
          if (lint.status !== 202) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        const afterPublish = await isolate.heap();
        if (res.status !== 201) {
          console.log(`  ${name} round ${round}: publish answered ${res.status} after ${publishS} s (${res.json.error?.code}: ${String(res.json.error?.message).slice(0, 120)}); live ${afterPublish.liveMB} MB`);
          continue;
        }
        const links = await operationLinks(res.json.url);
        let failed = 0;
        for (let i = 0; i < PAGES && links.length; i++) {
          const r = await fetch(server.baseUrl + links[(i * 7919 + round * 31) % links.length]);
          await r.arrayBuffer();
          if (r.status !== 200) failed++;
        }
        for (let i = 0; i < QUERIES; i++) {
          const q = WORDS[(i + round * 7) % WORDS.length];
          const r = await fetch(`${server.baseUrl}/p/mem/search.json?q=${encodeURIComponent(q)}&limit=10`);
          await r.arrayBuffer();
          if (r.status !== 200) failed++;
        }
        const afterReads = await isolate.heap();
        console.log(`  ${name} round ${round}: published in ${publishS} s; live after the publish and its lint ${afterPublish.liveMB} MB (heap ${afterPublish.usedMB} + ArrayBuffers ${afterPublish.buffersMB}), after ${PAGES} pages + ${QUERIES} queries (${failed} not 200) ${afterReads.liveMB} MB (heap ${afterReads.usedMB} + ArrayBuffers ${afterReads.buffersMB}; ${afterReads.totalMB} MB of heap allocated); workerd RSS ${workerdRss(server.pid)}`);
        if (snapshotDir && (round === 1 || round === ROUNDS)) {
          const out = join(snapshotDir, `${api}-round-${round}.heapsnapshot`);
          const stream = createWriteStream(out);
          await isolate.snapshot((chunk) => stream.write(chunk));
          await new Promise((r) => stream.end(r));
          console.log(`    heap snapshot: ${out} (${(statSync(out).size / 1e6).toFixed(1)} MB)`);
        }
      }
    }
  } finally {
    isolate.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
