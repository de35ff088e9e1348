// Lint benchmark: full lint of petstore, a ~1 MB public definition (DigitalOcean), a Swagger 2.0 one (Slack) and
// GitHub's REST description (13 MB), with Spectral's CLI and Redocly's CLI on the same files in the same run
// (ratios printed); GitHub's heap under a 128 MB cap; and keystroke-to-diagnostics latency of the incremental
// session on the 1 MB definition (JSON as published, and the same content as YAML). Prints figures; asserts
// nothing. Run: node bench/lint.mjs (BENCH_TOOLS=0 skips Spectral/Redocly; BENCH_EDITS=n edits, default 100).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadLint, ROOT, CORPUS } from "./lint-load.mjs";

const FILES = [
  { name: "petstore (3.0 YAML, 3 ops)", path: join(CORPUS, "oai-spec/examples/v3.0/petstore.yaml") },
  { name: "DigitalOcean (3.0 JSON, 1.07 MB)", path: join(CORPUS, "apis-guru-npm/api/digitalocean.com.json") },
  { name: "Slack Web (Swagger 2.0 JSON, 1.24 MB)", path: join(CORPUS, "slack/web-api/slack_web_openapi_v2.json") },
  { name: "GitHub REST (3.0 JSON, 13 MB)", path: join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json") },
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const EDITS = Number(process.env.BENCH_EDITS ?? 100);
const TOOLS = process.env.BENCH_TOOLS !== "0";

const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs) => pct(xs, 50);

function wall(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 30, timeout: 15 * 60_000 });
  const t = performance.now() - t0;
  return { ms: t, ok: r.status === 0 || r.status === 1, status: r.status, signal: r.signal };
}

export async function main() {
  const lint = await loadLint();
  const dir = mkdtempSync(join(tmpdir(), "portico-lint-bench-"));
  const ruleset = join(dir, ".spectral.yaml");
  writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');

  console.log("Lint benchmark (Portico engine in-process; Spectral and Redocly CLIs as child processes)");
  console.log("");
  const cli = join(dir, "portico-lint.mjs");
  writeFileSync(
    cli,
    `import { loadLint } from ${JSON.stringify(join(ROOT, "bench/lint-load.mjs"))};
import { readFileSync } from "node:fs";
const lint = await loadLint();
const r = lint.lintDocument(readFileSync(process.argv[2], "utf8"));
process.stdout.write(JSON.stringify(r.problems.length));`,
  );
  console.log(
    "Full lint, default rules".padEnd(40),
    "engine first".padEnd(13),
    "engine median".padEnd(14),
    "engine CPU".padEnd(11),
    "problems",
    ...(TOOLS ? ["Portico process", "Spectral CLI", "Redocly CLI", "Spectral/Portico", "Redocly/Portico"] : []),
  );
  for (const file of FILES) {
    const text = readFileSync(file.path, "utf8");
    const times = [];
    const cpu = [];
    let result;
    for (let i = 0; i < RUNS + 1; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      result = lint.lintDocument(text);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    const ours = median(times.slice(1));
    const row = [file.name.padEnd(40), ms(times[0]).padEnd(13), ms(ours).padEnd(14), ms(median(cpu.slice(1))).padEnd(11), String(result.problems.length).padEnd(8)];
    if (TOOLS) {
      // Like for like: each tool as a fresh Node process reading the file (start-up, bundle load, parse, lint).
      const portico = wall([cli, file.path]);
      const spectral = wall([join(ROOT, "node_modules/.bin/spectral"), "lint", "-r", ruleset, "-f", "json", "--quiet", file.path]);
      const redocly = wall([join(ROOT, "node_modules/.bin/redocly"), "lint", "--format=json", file.path]);
      row.push(
        ms(portico.ms).padEnd(15),
        (spectral.ok ? ms(spectral.ms) : `failed (${spectral.signal ?? spectral.status})`).padEnd(12),
        (redocly.ok ? ms(redocly.ms) : `failed (${redocly.signal ?? redocly.status})`).padEnd(11),
        (spectral.ok ? `${(spectral.ms / portico.ms).toFixed(1)}×` : "-").padEnd(16),
        redocly.ok ? `${(redocly.ms / portico.ms).toFixed(1)}×` : "-",
      );
    }
    console.log(...row);
  }
  console.log("(engine: lintDocument in this process, parse included; first = first lint of that file in this process, median of");
  console.log(` the next ${RUNS}. Process columns: wall time of a fresh Node process per tool, start-up included; ratios use them.)`);
  console.log(`(machine: ${(await import("node:os")).cpus().length} cores, load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")} at the end of the table)`);

  console.log("");
  heap();

  console.log("");
  keystrokes(lint, "DigitalOcean JSON (1.07 MB)", readFileSync(FILES[1].path, "utf8"));
  const yaml = await import("yaml");
  const asYaml = yaml.stringify(JSON.parse(readFileSync(FILES[1].path, "utf8")), { lineWidth: 0 });
  keystrokes(lint, `DigitalOcean as YAML (${(asYaml.length / 1e6).toFixed(2)} MB)`, asYaml);
}

/** GitHub REST in a child process capped at 128 MB of old-generation heap. */
function heap() {
  const dir = mkdtempSync(join(tmpdir(), "portico-lint-heap-"));
  const child = join(dir, "heap.mjs");
  writeFileSync(
    child,
    `import { loadLint } from ${JSON.stringify(join(ROOT, "bench/lint-load.mjs"))};
import { readFileSync } from "node:fs";
import v8 from "node:v8";
const lint = await loadLint();
const text = readFileSync(${JSON.stringify(FILES[3].path)}, "utf8");
globalThis.gc(); const base = process.memoryUsage().heapUsed;
const c0 = process.cpuUsage();
const t0 = performance.now();
const r = lint.lintDocument(text);
const t = performance.now() - t0;
const c = process.cpuUsage(c0); const cpu = (c.user + c.system) / 1000;
const used = process.memoryUsage().heapUsed; const total = v8.getHeapStatistics().total_heap_size;
globalThis.gc(); const retained = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ t, cpu, problems: r.problems.length, base, used, total, retained }));`,
  );
  const out = spawnSync(process.execPath, ["--max-old-space-size=128", "--expose-gc", child], { encoding: "utf8" });
  if (out.status !== 0) {
    console.log(`GitHub REST under --max-old-space-size=128: FAILED (${out.signal ?? out.status}) ${out.stderr.split("\n").slice(-3).join(" ")}`);
    return;
  }
  const r = JSON.parse(out.stdout.trim().split("\n").pop());
  const mb = (x) => `${(x / 1048576).toFixed(0)} MB`;
  console.log(`GitHub REST in a fresh process under --max-old-space-size=128: linted in ${ms(r.t)} wall, ${ms(r.cpu)} CPU (cold JIT), ${r.problems} problems`);
  console.log(`  heap before ${mb(r.base)} (13 MB text + bundle), after lint ${mb(r.used)} used / ${mb(r.total)} allocated, ${mb(r.retained)} retained after GC`);
}

/** One-character edits inside descriptions, alternately typed and deleted: time of session.update. */
function keystrokes(lint, name, text) {
  let t0 = performance.now();
  const session = lint.createLintSession(text);
  const opened = performance.now() - t0;
  const spots = [...text.matchAll(/description"?: ?"?[A-Z][a-z]+ /g)].map((m) => m.index + m[0].length - 1);
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const times = [];
  const modes = new Map();
  let current = session.text;
  for (let i = 0; i < EDITS; i++) {
    const at = spots[Math.floor(random() * spots.length)];
    // Type a character, then delete it: the document stays valid and spots stay put.
    for (const change of [{ from: at, to: at, insert: "x" }, { from: at, to: at + 1, insert: "" }]) {
      t0 = performance.now();
      session.update(change);
      times.push(performance.now() - t0);
      current = current.slice(0, change.from) + change.insert + current.slice(change.to);
      modes.set(session.lastUpdate.parse, (modes.get(session.lastUpdate.parse) ?? 0) + 1);
    }
  }
  if (session.text !== current) throw new Error("session text diverged");
  const how = [...modes].map(([m, n]) => `${m} ${n}`).join(", ");
  console.log(`Keystroke → fresh diagnostics, ${name}: session opened in ${ms(opened)}; ${times.length} edits: p50 ${ms(median(times))}, p95 ${ms(pct(times, 95))}, max ${ms(Math.max(...times))} (re-parse: ${how})`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
