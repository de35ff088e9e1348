// Editor benchmark (issues 4 and 12): time from a one-character edit in the Source view to fresh diagnostics on
// DigitalOcean (~1 MB) and GitHub's REST description (13 MB), in Debian Chromium, through the lint Web Worker
// (target p95 <= 100 ms); also, since navigation, when the Source view was first painted (the early view's first
// frame with the definition's first lines, client/editor/early.ts, and CodeMirror's first frame), when the first
// diagnostics and (Split view) the outline arrived, and the page's JS heap after the edits. Uses the built client
// (dist/client/assets; run scripts/build-client.mjs first) behind bench/editor-harness.mjs. Each edit types
// or deletes one character inside a description and waits for that version's problems. Prints figures only.
// BENCH_RAW=1 prints each edit's phases; BENCH_PROFILE=1 (or =total) the page's main-thread profile over the
// edits; BENCH_TRACE=1 (or =file.json, which also keeps the raw trace) a trace of every thread, summarised per edit.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { stringify } from "yaml";
import { startEditorHarness } from "./editor-harness.mjs";
import { topFunctions } from "./lib/cpu-profile.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const DIGITALOCEAN = join(ROOT, "../shared/corpus/apis-guru-npm/api/digitalocean.com.json");
// GitHub's REST description (13 MB JSON, 1,223 operations), from the @octokit/openapi dev dependency.
const GITHUB = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const EDITS = Number(process.env.BENCH_EDITS ?? 60);
const GITHUB_EDITS = Number(process.env.BENCH_EDITS ?? 40);
/** `BENCH_EDITOR=github` (or `digitalocean`) runs only those definitions; `BENCH_EDITOR_VIEW=source` (or `split`) only that view. */
const ONLY = process.env.BENCH_EDITOR;
const ONLY_VIEW = process.env.BENCH_EDITOR_VIEW;
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;

function definitions() {
  const defs = [];
  if (!ONLY || ONLY === "digitalocean") {
    const json = readFileSync(DIGITALOCEAN, "utf8");
    defs.push(
      { name: "DigitalOcean, JSON", text: json, view: "source", edits: EDITS },
      { name: "DigitalOcean, YAML", text: stringify(JSON.parse(json), { lineWidth: 0 }), view: "source", edits: EDITS },
      // Split view: the Visual model is rebuilt after edits too, in its own worker instance.
      { name: "DigitalOcean, JSON, Split view", text: json, view: "split", edits: EDITS },
    );
  }
  if (!ONLY || ONLY === "github") {
    const json = readFileSync(GITHUB, "utf8");
    defs.push(
      { name: "GitHub, JSON", text: json, view: "source", edits: GITHUB_EDITS },
      { name: "GitHub, JSON, Split view", text: json, view: "split", edits: GITHUB_EDITS },
    );
  }
  return defs.filter((d) => !ONLY_VIEW || d.view === ONLY_VIEW);
}

/**
 * A new page whose session storage holds the harness's editor token and whose local storage the editor `view`
 * ("source", "split"...); with `trace`, the session records a LintTrace per result ("portico:bench").
 */
async function editorPage(browser, harness, view, trace) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(([t, v, traced]) => {
    sessionStorage.setItem("portico:token:bench", t);
    if (traced) sessionStorage.setItem("portico:bench", "1");
    localStorage.setItem("portico:editor:view", v);
    // When the outline's first row enters the DOM (Split view), wherever the benchmark is waiting then.
    if (v === "split") {
      const seen = new MutationObserver(() => {
        if (!document.querySelector(".ed-nav-item")) return;
        globalThis.__benchOutlineAt = performance.now();
        seen.disconnect();
      });
      seen.observe(document, { childList: true, subtree: true });
    }
  }, [harness.token, view, trace]);
  return page;
}

async function measure(browser, def) {
  const harness = await startEditorHarness({ definition: def.text });
  // The session records where each keystroke's diagnostics spent their time (LintTrace in client/editor/session.ts).
  const page = await editorPage(browser, harness, def.view, true);
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(harness.editorUrl);
    await page.waitForFunction(() => globalThis.__porticoEditor?.stats.sourcePaintAt !== undefined, null, { timeout: 120_000 });
    await page.waitForFunction(() => globalThis.__porticoEditor?.stats.lintLatencies.length >= 1, null, { timeout: 300_000 });
    const [first, paintAt, firstProblemsAt, earlyAt] = await page.evaluate(() => {
      const s = globalThis.__porticoEditor.stats;
      return [s.lintLatencies[0], s.sourcePaintAt, s.firstProblemsAt, globalThis.__porticoEarly?.paintAt];
    });
    // When the early view's text was on screen by Element Timing in this page: Chromium drops the entry when
    // CodeMirror has replaced the view before it hands the entry over (often: then "dropped"; see earlyRender).
    const earlyInPage = earlyAt === undefined ? undefined : await page.evaluate(() => new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const times = list.getEntries().filter((e) => e.identifier === "portico-early-source").map((e) => e.renderTime || e.startTime);
        if (times.length) resolve(Math.min(...times));
      }).observe({ type: "element", buffered: true });
      setTimeout(() => resolve(undefined), 1000);
    }));
    // Split view: the outline is on screen once the first model has arrived (recorded by the page's observer).
    const outlineAt = def.view === "split" ? await page.waitForFunction(() => globalThis.__benchOutlineAt, null, { timeout: 300_000 }).then((h) => h.jsonValue()) : undefined;
    // Cursor positions inside description strings spread over the file.
    const spots = await page.evaluate((n) => {
      const text = globalThis.__porticoEditor.text();
      const found = [];
      const re = /"?description"?:\s*"?[A-Za-z]/g;
      let m;
      while ((m = re.exec(text))) found.push(m.index + m[0].length - 1);
      const step = Math.max(1, Math.floor(found.length / n));
      return Array.from({ length: n }, (_, i) => found[(i * step) % found.length]);
    }, Math.ceil(def.edits / 2));
    // BENCH_PROFILE=1: a CPU profile of the page's main thread over the edits, top self-time functions printed.
    if (process.env.BENCH_PROFILE) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    // BENCH_TRACE=1: a Chromium trace over the edits (all threads), summarised per edit by traceLines.
    const tracing = process.env.BENCH_TRACE ? await startTrace(browser, page) : undefined;
    const latencies = [];
    const traces = [];
    const lintMs = [];
    const frames = [];
    for (let i = 0; i < def.edits; i++) {
      const spot = spots[Math.floor(i / 2)];
      const before = await page.evaluate((pos) => {
        const s = globalThis.__porticoEditor;
        s.view.dispatch({ selection: { anchor: pos } });
        s.view.focus();
        return s.stats.lintLatencies.length;
      }, i % 2 === 0 ? spot : spot + 1);
      await page.keyboard.press(i % 2 === 0 ? "x" : "Backspace");
      await page.waitForFunction((n) => {
        const s = globalThis.__porticoEditor;
        return s.stats.lintLatencies.length > n && s.store.state.problemsVersion === s.store.state.version && s.stats.trace?.at(-1)?.paintedAt !== undefined;
      }, before, { timeout: 60_000 });
      const [latency, lint, frame, trace] = await page.evaluate(() => {
        const s = globalThis.__porticoEditor.stats;
        return [s.lintLatencies.at(-1), s.lintMs.at(-1), s.keyToFrameMs.at(-1), s.trace.at(-1)];
      });
      traces.push(trace);
      latencies.push(latency);
      lintMs.push(lint);
      if (frame !== undefined) frames.push(frame);
    }
    const threads = tracing ? await tracing.stop() : undefined;
    const profile = process.env.BENCH_PROFILE ? profileLines((await cdp.send("Profiler.stop")).profile) : undefined;
    // Split view: one more keystroke, and the time until the Visual model of that version has arrived (the
    // session's debounce, in proportion to the last model's time, included).
    let modelAfterEdit;
    if (def.view === "split") {
      await page.evaluate((pos) => {
        const s = globalThis.__porticoEditor;
        s.view.dispatch({ selection: { anchor: pos } });
        s.view.focus();
      }, spots[0]);
      const [keyAt, version] = await page.evaluate(() => [performance.now(), globalThis.__porticoEditor.store.state.version]);
      await page.keyboard.press("y");
      modelAfterEdit = await page
        .waitForFunction((v) => {
          const model = globalThis.__porticoEditor.store.state.model;
          return model && model.version > v && performance.now();
        }, version, { timeout: 300_000, polling: 10 })
        .then((h) => h.jsonValue())
        .then((t) => t - keyAt);
    }
    const problems = await page.evaluate(() => globalThis.__porticoEditor.store.state.problems.length);
    // Live objects only: collect garbage first (the figure is what the page keeps, not what it has yet to free).
    await cdp.send("HeapProfiler.collectGarbage");
    const metrics = (await cdp.send("Performance.getMetrics")).metrics;
    const heap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? NaN;
    const domNodes = metrics.find((m) => m.name === "Nodes")?.value ?? NaN;
    // When the early view's text was actually on screen: a second navigation (below), the editor bundle held back.
    const early = earlyAt === undefined ? undefined : await earlyRender(browser, harness, def);
    const earlyRenderAt = early?.renderAt;
    return { first, paintAt, earlyAt, earlyInPage, earlyRenderAt, earlyHeldAt: early?.paintAt, firstProblemsAt, outlineAt, latencies, traces, lintMs, frames, problems, heap, domNodes, profile, modelAfterEdit, threads };
  } finally {
    await page.close();
    await harness.close();
  }
}

/**
 * The early view's Element Timing render time (when its first line was presented) and frame-callback time, since
 * navigation, in a page whose editor bundle is held back. In the real page CodeMirror often replaces the early
 * view before Chromium hands the entry over (the presentation feedback is processed on the main thread, busy with
 * the bundle by then), and Chromium then drops the entry (text whose layout is gone). The early
 * frame is recorded before the bundle's import starts (a task after that frame's callback), so holding the bundle
 * leaves the frame itself alone; what it leaves out is the bundle's competition for the compositor.
 */
async function earlyRender(browser, harness, def) {
  const page = await editorPage(browser, harness, def.view, false);
  try {
    await page.route("**/assets/editor.js", () => {}); // never answered: the early view stays
    await page.goto(harness.editorUrl);
    await page.waitForFunction(() => globalThis.__porticoEarly?.paintAt !== undefined, null, { timeout: 60_000 });
    const renderAt = await page.evaluate(() => new Promise((resolve) => {
      // The first line (a block span) and the pre both carry the identifier: the earliest entry counts.
      new PerformanceObserver((list) => {
        const times = list.getEntries().filter((e) => e.identifier === "portico-early-source").map((e) => e.renderTime || e.startTime);
        if (times.length) resolve(Math.min(...times));
      }).observe({ type: "element", buffered: true });
      setTimeout(() => resolve(undefined), 5000);
    }));
    return { renderAt, paintAt: await page.evaluate(() => globalThis.__porticoEarly.paintAt) };
  } finally {
    await page.close();
  }
}

/**
 * Starts a browser-wide trace (every process and thread: the page's main thread, the lint worker's, V8's GC) and
 * marks the page's clock in it. `stop()` → { main, worker, workerName }: the page's main thread and a worker's,
 * each as { tasks, gc }: top-level tasks (with the events inside them as `children`) and GC events, each
 * { name, at, end, data } in the page's `performance.now()` milliseconds; undefined if the mark is missing.
 */
async function startTrace(browser, page) {
  const cdp = await browser.newBrowserCDPSession();
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "disabled-by-default-v8.gc", "blink.user_timing", "__metadata"];
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: categories }, transferMode: "ReportEvents" });
  const markAt = await page.evaluate(() => performance.mark("portico-bench-sync").startTime);
  return {
    async stop() {
      const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
      await cdp.send("Tracing.end");
      await done;
      await cdp.detach();
      // BENCH_TRACE=file.json: the raw events too, for chrome://tracing or Perfetto.
      if (process.env.BENCH_TRACE.endsWith(".json")) writeFileSync(process.env.BENCH_TRACE, JSON.stringify({ traceEvents: events }));
      const mark = events.find((e) => e.name === "portico-bench-sync");
      if (!mark) return undefined;
      const offset = mark.ts / 1000 - markAt;
      const names = new Map(events.filter((e) => e.name === "thread_name").map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
      const mainKey = `${mark.pid}:${mark.tid}`;
      const workerKey = [...names].find(([k, n]) => k.startsWith(`${mark.pid}:`) && /DedicatedWorker/.test(n))?.[0];
      const complete = (key) => events.filter((e) => e.ph === "X" && `${e.pid}:${e.tid}` === key && e.dur !== undefined).map((e) => ({ name: e.name, at: e.ts / 1000 - offset, end: (e.ts + e.dur) / 1000 - offset, data: e.args?.data }));
      const tasks = (key) => {
        const all = complete(key).sort((a, b) => a.at - b.at || b.end - a.end);
        const top = all.filter((e) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask");
        for (const t of top) t.children = all.filter((e) => e !== t && e.at >= t.at && e.end <= t.end && e.name !== t.name);
        return { tasks: top, gc: all.filter((e) => /^(MajorGC|MinorGC|V8\.GC_SCAVENGER$|V8\.GC_MARK_COMPACTOR$|V8\.GC_MC_BACKGROUND|V8\.GC_SCAVENGER_BACKGROUND)/.test(e.name)) };
      };
      // The first dedicated worker of the page's process: the lint worker in the Source view (the Split view has a
      // second one, for the Visual model, which this may pick instead).
      return { main: tasks(mainKey), worker: workerKey ? tasks(workerKey) : undefined, workerName: workerKey && names.get(workerKey) };
    },
  };
}

/** Per edit: GC on the page's and the worker's threads during the keystroke, and what the page ran while the answer waited. */
function traceLines(traces, threads) {
  const overlap = (list, from, to) => list.reduce((sum, e) => sum + Math.max(0, Math.min(e.end, to) - Math.max(e.at, from)), 0);
  const lines = [`    trace per edit (ms): page GC | worker GC | page tasks while the answer waited (name: own top events)`];
  traces.forEach((t, i) => {
    const from = t.keyAt ?? t.postAt;
    const to = t.paintedAt ?? t.storedAt;
    const pageGc = overlap(threads.main.gc.filter((e) => /^(MajorGC|MinorGC)$/.test(e.name)), from, to);
    const workerGc = threads.worker ? overlap(threads.worker.gc.filter((e) => /^(MajorGC|MinorGC)$/.test(e.name)), from, to) : NaN;
    const waiting = threads.main.tasks.filter((k) => k.end > t.workerPostAt && k.at < t.receivedAt && k.end - k.at >= 3);
    const describe = (k) => {
      const by = new Map();
      for (const c of k.children) {
        // An event's type and a script's function name say which listener or callback ran.
        const what = c.name === "EventDispatch" ? `${c.name}(${c.data?.type})` : c.name === "FunctionCall" && c.data?.functionName ? `${c.data.functionName}@${String(c.data.url ?? "").split("/").pop()}:${c.data.lineNumber}:${c.data.columnNumber}` : c.name;
        by.set(what, (by.get(what) ?? 0) + (c.end - c.at));
      }
      return `${(k.end - k.at).toFixed(0)}: ` + [...by].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, d]) => `${n} ${d.toFixed(0)}`).join(", ");
    };
    lines.push(`      ${String(i + 1).padStart(2)}: ${pageGc.toFixed(1)} | ${workerGc.toFixed(1)} | ${waiting.map(describe).join(" ; ")}`);
  });
  const sum = (xs) => xs.reduce((a, e) => a + (e.end - e.at), 0).toFixed(0);
  const counts = (xs) => ["MajorGC", "MinorGC"].map((n) => `${n} ${xs.filter((e) => e.name === n).length}× ${sum(xs.filter((e) => e.name === n))} ms`).join(", ");
  lines.push(`    over the edits: page ${counts(threads.main.gc)}; worker (${threads.workerName ?? "not found"}) ${threads.worker ? counts(threads.worker.gc) : "-"}`);
  return lines;
}

/** A keystroke's phases (from its LintTrace), in ms; undefined where the trace lacks a time. */
const PHASES = [
  ["key→edit posted", (t) => t.postAt - t.keyAt],
  ["edit→worker", (t) => t.workerEditAt - t.postAt],
  ["worker queue", (t) => t.workerStartAt - t.workerEditAt],
  ["lint", (t) => t.lintMs],
  ["answer→page", (t) => t.receivedAt - t.workerPostAt],
  ["map", (t) => t.mappedAt - t.receivedAt],
  ["CodeMirror", (t) => t.appliedAt - t.mappedAt],
  ["store+render", (t) => t.renderedAt - t.appliedAt],
  ["→painted", (t) => t.paintedAt - t.renderedAt],
  ["key→painted", (t) => t.paintedAt - t.keyAt],
];

/** Lines describing where keystrokes' diagnostics spent their time: p50/p95 per phase, and (BENCH_RAW) per edit. */
function phaseLines(traces) {
  const lines = [];
  const cols = PHASES.map(([name, f]) => [name, traces.map((t) => f(t)).filter((x) => Number.isFinite(x))]);
  lines.push(`    CodeMirror's lint state replaced after ${traces.filter((t) => t.dispatched !== false).length} of ${traces.length} edits`);
  lines.push("    phases p50/p95: " + cols.filter(([, xs]) => xs.length).map(([name, xs]) => `${name} ${pct(xs, 50).toFixed(1)}/${pct(xs, 95).toFixed(1)}`).join(", "));
  if (process.env.BENCH_RAW) {
    lines.push("    per edit: " + PHASES.map(([name]) => name).join(" | "));
    traces.forEach((t, i) => lines.push(`      ${String(i + 1).padStart(2)}: ` + PHASES.map(([, f]) => { const x = f(t); return Number.isFinite(x) ? x.toFixed(1) : "-"; }).join(" | ")));
  }
  return lines;
}

/**
 * The 15 functions with the most self samples in a CDP profile, as "share name (file:line)" lines, then (with
 * BENCH_PROFILE=total) the 25 with the most samples self and callees (recursion counted once).
 */
function profileLines(profile) {
  return process.env.BENCH_PROFILE === "total" ? [...topFunctions(profile, false, 15), "(self and callees:)", ...topFunctions(profile, true, 25)] : topFunctions(profile, false, 15);
}

export async function main() {
  console.log(`editor: one-character edit → fresh diagnostics in Chromium through the lint worker (${EDITS} edits, ${GITHUB_EDITS} on GitHub; target p95 <= 100 ms)`);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    for (const def of definitions()) {
      const r = await measure(browser, def);
      const kb = (def.text.length / 1024).toFixed(0);
      console.log(`  ${def.name} (${kb} KB, ${r.problems} problems): first lint ${ms(r.first)}`);
      // "Source painted": the first lines of the definition visible in the Source pane, by the early view when it
      // was shown (Source view), else by CodeMirror; "editor painted": CodeMirror's first frame.
      const painted = r.earlyAt !== undefined ? `Source painted ${ms(r.earlyAt)} (early view; its text presented ${r.earlyInPage ? ms(r.earlyInPage) : "(entry dropped)"} by Element Timing; with the bundle held back: frame ${r.earlyHeldAt !== undefined ? ms(r.earlyHeldAt) : "?"}, presented ${r.earlyRenderAt ? ms(r.earlyRenderAt) : "?"}), editor painted ${ms(r.paintAt)}` : `Source painted ${ms(r.paintAt)}`;
      console.log(`    since navigation: ${painted}, first diagnostics ${ms(r.firstProblemsAt)}${r.outlineAt !== undefined ? `, outline shown ${ms(r.outlineAt)}` : ""}`);
      if (r.modelAfterEdit !== undefined) console.log(`    Visual model of an edited version on the page ${ms(r.modelAfterEdit)} after the key`);
      console.log(`    page JS heap after the edits (after GC) ${(r.heap / 1048576).toFixed(0)} MB, ${r.domNodes} DOM nodes`);
      console.log(`    edit→diagnostics  p50 ${ms(pct(r.latencies, 50))}  p95 ${ms(pct(r.latencies, 95))}  max ${ms(Math.max(...r.latencies))}`);
      console.log(`    lint in worker    p50 ${ms(pct(r.lintMs, 50))}  p95 ${ms(pct(r.lintMs, 95))}`);
      if (process.env.BENCH_RAW) console.log("    raw", r.latencies.map((x) => x.toFixed(0)).join(" "));
      if (r.traces.length) console.log(phaseLines(r.traces).join("\n"));
      if (r.threads) console.log(traceLines(r.traces, r.threads).join("\n"));
      if (r.profile) console.log(["    main thread, self time over the edits:", ...r.profile.map((l) => `      ${l}`)].join("\n"));
      console.log(`    key→next frame    p50 ${ms(pct(r.frames, 50))}  p95 ${ms(pct(r.frames, 95))}  (main thread stays free while the worker lints)`);
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
