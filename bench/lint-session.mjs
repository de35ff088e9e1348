// Lint session benchmark (issue 12): the editor's lint worker's work per keystroke, in Node, without the browser:
// a session on GitHub's REST description (13 MB JSON), then one-character edits inside descriptions spread over
// the file (the spots bench/editor.mjs types at: typed, then deleted). Prints wall and CPU time per update with
// its parse / rules / locate split and the fragments walked. `BENCH_EDITS=n` (default 40); `BENCH_FILE=path` lints
// another definition; `BENCH_LINT_ROOT=dir` lints with another checkout's engine (to compare two builds, with
// node_modules beside it); `BENCH_PROFILE=1` prints the top functions of a CPU profile over the edits only. Prints
// figures only.
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { topFunctions } from "./lib/cpu-profile.mjs";
import { loadLint, ROOT } from "./lint-load.mjs";

const FILE = process.env.BENCH_FILE ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const EDITS = Number(process.env.BENCH_EDITS ?? 40);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const line = (name, xs) => `${name} p50 ${ms(pct(xs, 50))}  p95 ${ms(pct(xs, 95))}  max ${ms(Math.max(...xs))}`;

export async function main() {
  const lint = await loadLint(process.env.BENCH_LINT_ROOT);
  const text = readFileSync(FILE, "utf8");
  let t0 = performance.now();
  const session = lint.createLintSession(text);
  const opened = performance.now() - t0;
  const found = [...text.matchAll(/"?description"?:\s*"?[A-Za-z]/g)].map((m) => m.index + m[0].length - 1);
  const n = Math.ceil(EDITS / 2);
  const step = Math.max(1, Math.floor(found.length / n));
  const spots = Array.from({ length: n }, (_, i) => found[(i * step) % found.length]);
  const wall = [];
  const cpu = [];
  const parts = { parse: [], rules: [], locate: [] };
  /** The rules phase split (RunStats.phases): the node-rule walk and the document rules' skeleton walk. */
  const split = { fragments: [], skeleton: [] };
  const walked = [];
  const rows = [];
  const inspector = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
    await inspector.post("Profiler.start");
  }
  for (let i = 0; i < EDITS; i++) {
    const at = spots[Math.floor(i / 2)];
    const change = i % 2 === 0 ? { from: at, to: at, insert: "x" } : { from: at, to: at + 1, insert: "" };
    const c0 = process.cpuUsage();
    t0 = performance.now();
    session.update([change]);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    const u = session.lastUpdate;
    for (const k of Object.keys(parts)) parts[k].push(u.timings?.[k] ?? NaN);
    walked.push(u.stats?.fragmentsWalked ?? NaN);
    const ph = u.stats?.phases ?? {};
    for (const k of Object.keys(split)) split[k].push(ph[k] ?? NaN);
    rows.push([wall.at(-1), cpu.at(-1), u.timings?.parse ?? NaN, ph.fragments ?? NaN, ph.skeleton ?? NaN, ph.dedupe ?? NaN, u.timings?.locate ?? NaN, String(u.stats?.fragmentsWalked ?? "") + (u.stats?.incremental ? "i" : ""), " " + pathAt(text, at)]);
  }
  const profile = inspector ? (await inspector.post("Profiler.stop")).profile : undefined;
  console.log(`lint session on ${FILE.split("/").pop()} (${(text.length / 1048576).toFixed(1)} MB, ${session.result.problems.length} problems): opened in ${ms(opened)}; ${EDITS} edits`);
  console.log(`  ${line("update wall", wall)}`);
  console.log(`  ${line("update CPU ", cpu)}`);
  for (const [k, xs] of Object.entries(parts)) console.log(`    ${line(k.padEnd(6), xs)}`);
  for (const [k, xs] of Object.entries(split)) console.log(`      ${line(k.padEnd(9), xs)}`);
  console.log(`  fragments walked p50 ${pct(walked, 50)} p95 ${pct(walked, 95)} max ${Math.max(...walked)}`);
  if (process.env.BENCH_RAW) console.log("  raw", wall.map((x) => x.toFixed(0)).join(" "));
  if (process.env.BENCH_RAW) {
    // Per edit: where the slow ones went (the run's phases, fragments walked, and where the edit was).
    console.log("  edit  wall   cpu  parse fragm  skel dedup locate walked  at");
    rows.forEach((r, i) => console.log(`  ${String(i).padStart(4)} ${r.map((x) => (typeof x === "number" ? x.toFixed(1) : x).padStart(5)).join(" ")}`));
  }
  if (profile) console.log(["  self time over the edits:", ...topFunctions(profile, false)].join("\n    "));
  if (profile) console.log(["  total time (self and callees) over the edits:", ...topFunctions(profile, true)].join("\n    "));
}

/** A short label of where offset `at` lies in a JSON text: the nearest quoted keys before it that look like a place. */
function pathAt(text, at) {
  const before = text.slice(Math.max(0, at - 4000), at);
  const keys = [...before.matchAll(/"(\/[^"]{0,60}|[a-z-]+\/[^"]{0,40}|get|post|put|patch|delete|properties|schemas|responses|examples|parameters)":/g)].map((m) => m[1]);
  return keys.slice(-2).join(" ").slice(0, 60);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
