import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { LintEngine, LintSessionLike } from "./lint-engine";
import { createLintHost, warmUpSpots } from "./lint-host";
import { PORTICO_LINT_ENGINE } from "./portico-lint-engine";
import type { FromWorker, TextChange } from "./protocol";
import { applyChanges } from "./text-changes";

/** An engine that reports one problem per line containing "BAD" and records how it was called. */
function fakeEngine(calls: string[]): LintEngine {
  const lint = (text: string) => ({
    problems: text
      .split("\n")
      .flatMap((l, i) => (l.includes("BAD") ? [{ severity: "warning", rule: "no-bad", message: "bad line", line: i + 1, column: l.indexOf("BAD") + 1, path: ["x", i] }] : [])),
  });
  return {
    createSession(text) {
      calls.push(`create:${text.length}`);
      let current = text;
      return {
        result: () => lint(current),
        update: (batches: readonly (readonly TextChange[])[]) => {
          calls.push(`update:${batches.length}`);
          for (const b of batches) current = applyChanges(current, b);
          return lint(current);
        },
      };
    },
  };
}

function host() {
  const out: FromWorker[] = [];
  const calls: string[] = [];
  const queue: (() => void)[] = [];
  const handle = createLintHost({ engine: fakeEngine(calls), post: (m) => out.push(m), defer: (t) => queue.push(t), now: () => 0 });
  const flush = () => queue.splice(0).forEach((t) => t());
  return { out, calls, handle, flush };
}

describe("createLintHost", () => {
  it("lints once per burst of edits, for the latest version, with normalised problems", () => {
    const { out, calls, handle, flush } = host();
    handle({ type: "open", version: 1, text: "openapi: 3.1.0\n" });
    flush();
    handle({ type: "edit", version: 2, changes: [{ from: 15, to: 15, insert: "x: BAD\n" }] });
    handle({ type: "edit", version: 3, changes: [{ from: 0, to: 0, insert: "# c\n" }] });
    flush();
    expect(calls).toEqual(["create:15", "update:2"]);
    expect(out).toEqual([
      { type: "problems", version: 1, problems: [], errors: 0, warnings: 0, lintMs: 0 },
      { type: "problems", version: 3, problems: [{ severity: "warn", rule: "no-bad", message: "bad line", line: 3, column: 4, path: "/x/2" }], errors: 0, warnings: 1, lintMs: 0 },
    ]);
  });

  it("applies multi-range edits in original coordinates", () => {
    const { out, handle, flush } = host();
    handle({ type: "open", version: 1, text: "a\nb\nc\n" });
    handle({ type: "edit", version: 2, changes: [{ from: 0, to: 1, insert: "BAD" }, { from: 4, to: 5, insert: "BAD" }] });
    flush();
    const last = out.at(-1);
    expect(last?.type === "problems" && last.problems.map((p) => p.line)).toEqual([1, 3]);
  });

  it("answers model, structural and conversion requests against the current version, refusing stale ones", () => {
    const { out, handle } = host();
    handle({ type: "open", version: 1, text: "openapi: 3.1.0\ninfo:\n  title: A # t\n  version: '1'\npaths: {}\n" });
    handle({ type: "model", id: 1, version: 1, pointers: ["/info"] });
    handle({ type: "structural", id: 2, version: 1, op: { op: "set", path: ["info", "summary"], value: "S" } });
    handle({ type: "structural", id: 3, version: 0, op: { op: "delete", path: ["info"] } });
    handle({ type: "convert", id: 4, version: 1, to: "json" });
    const model = out.find((m) => m.type === "model");
    expect(model?.type === "model" && model.model.values["/info"]).toEqual({ title: "A", version: "1" });
    expect(out.find((m) => m.type === "structural" && m.id === 2)).toEqual({ type: "structural", id: 2, version: 1, change: { from: 51, to: 51, insert: "  summary: S\n" } });
    expect(out.find((m) => m.type === "structural" && m.id === 3)).toEqual({ type: "structural", id: 3, version: 1, error: "stale" });
    const converted = out.find((m) => m.type === "convert");
    expect(converted).toMatchObject({ type: "convert", id: 4, version: 1, lostComments: 1 });
    expect(converted?.type === "convert" && JSON.parse(converted.text!)).toEqual({ openapi: "3.1.0", info: { title: "A", version: "1" }, paths: {} });
  });
});

describe("createLintHost when the engine throws", () => {
  it("reports one lint-failure problem and starts a new session on the next edit", () => {
    const out: FromWorker[] = [];
    let calls = 0;
    const engine: LintEngine = {
      createSession() {
        calls++;
        if (calls === 1) throw new Error("boom");
        return { result: () => ({ problems: [] }), update: () => ({ problems: [] }) };
      },
    };
    const handle = createLintHost({ engine, post: (m) => out.push(m), defer: (t) => t(), now: () => 0 });
    handle({ type: "open", version: 1, text: "a: 1\n" });
    expect(out[0]).toEqual({ type: "problems", version: 1, problems: [{ severity: "error", rule: "lint-failure", message: "The linter failed: boom", line: 1, column: 1, path: "" }], errors: 1, warnings: 0, lintMs: 0 });
    handle({ type: "edit", version: 2, changes: [{ from: 0, to: 0, insert: "#\n" }] });
    expect(out[1]).toMatchObject({ type: "problems", version: 2, problems: [] });
    expect(calls).toBe(2);
  });
});

describe("createLintHost without linting", () => {
  it("keeps the text in step and answers requests, but never lints", () => {
    const { out, calls, handle, flush } = host();
    handle({ type: "open", version: 1, text: "info: {}\n", lint: false });
    handle({ type: "edit", version: 2, changes: [{ from: 0, to: 0, insert: "openapi: 3.1.0\n" }] });
    flush();
    handle({ type: "model", id: 1, version: 2, pointers: ["/info"] });
    expect(calls).toEqual([]);
    expect(out.map((m) => m.type)).toEqual(["model"]);
    expect(out[0].type === "model" && out[0].model.specVersion).toBe("3.1");
  });
  it("applies several edits made before a request as one composed change", () => {
    const { out, handle } = host();
    let text = "openapi: 3.1.0\ninfo:\n  title: A\n  version: '1'\npaths: {}\n";
    handle({ type: "open", version: 1, text, lint: false });
    let version = 1;
    const edit = (make: (t: string) => TextChange[]) => {
      const changes = make(text);
      text = applyChanges(text, changes);
      handle({ type: "edit", version: ++version, changes });
    };
    edit((t) => [{ from: t.indexOf("A\n"), to: t.indexOf("A\n") + 1, insert: "Alpha" }]);
    edit((t) => [{ from: 0, to: 0, insert: "# head\n" }, { from: t.indexOf("  version"), to: t.indexOf("  version"), insert: "  summary: S\n" }]);
    edit((t) => [{ from: t.length, to: t.length, insert: "x-tail: 1\n" }]);
    handle({ type: "convert", id: 1, version, to: "json" });
    const converted = out.find((m) => m.type === "convert");
    expect(converted?.type === "convert" && JSON.parse(converted.text!)).toEqual({ openapi: "3.1.0", info: { title: "Alpha", summary: "S", version: "1" }, paths: {}, "x-tail": 1 });
    expect(text).toContain("title: Alpha\n  summary: S\n");
  });
  it("lints with the portal's ruleset from the open message, before and after edits (Portico's engine)", () => {
    const out: FromWorker[] = [];
    const queue: (() => void)[] = [];
    const handle = createLintHost({ engine: PORTICO_LINT_ENGINE, post: (m) => out.push(m), defer: (t) => queue.push(t), now: () => 0 });
    const flush = () => queue.splice(0).forEach((t) => t());
    const text = 'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get:\n      responses: {"200": {description: ok}}\n';
    const ruleset = { extends: "recommended" as const, rules: { "operation-operationId": "off" as const, "info-description": "error" as const }, overrides: [] };
    handle({ type: "open", version: 1, text, ruleset });
    flush();
    handle({ type: "edit", version: 2, changes: [{ from: text.length, to: text.length, insert: "  /b:\n    get:\n      responses: {}\n" }] });
    flush();
    const rules = (m: FromWorker) => (m.type === "problems" ? m.problems.map((p) => `${p.rule} ${p.severity}`) : []);
    for (const m of out) {
      expect(rules(m)).toContain("info-description error");
      expect(rules(m).filter((r) => r.startsWith("operation-operationId"))).toEqual([]);
    }
    expect(out).toHaveLength(2);
  });
});

describe("createLintHost on GitHub's 13 MB description (Portico's engine, incremental)", () => {
  const GITHUB = new URL("../../node_modules/@octokit/openapi/generated/api.github.com.json", import.meta.url);

  /** Problems of a fresh host opened on `text`: what a full lint shows. */
  function fullLint(text: string) {
    const out: FromWorker[] = [];
    createLintHost({ engine: PORTICO_LINT_ENGINE, post: (m) => out.push(m), defer: (t) => t(), now: () => 0 })({ type: "open", version: 1, text });
    return out[0];
  }

  it("shows after each burst of edits exactly what a full lint of the edited text shows", () => {
    let text = readFileSync(GITHUB, "utf8");
    const out: FromWorker[] = [];
    const queue: (() => void)[] = [];
    const handle = createLintHost({ engine: PORTICO_LINT_ENGINE, post: (m) => out.push(m), defer: (t) => queue.push(t), now: () => 0 });
    const flush = () => queue.splice(0).forEach((t) => t());
    let version = 1;
    handle({ type: "open", version, text });
    flush();
    const edit = (changes: TextChange[]) => {
      text = applyChanges(text, changes);
      handle({ type: "edit", version: ++version, changes });
    };
    const after = (needle: string, from = 0) => {
      const at = text.indexOf(needle, from);
      expect(at).toBeGreaterThanOrEqual(0);
      return at + needle.length;
    };
    const fresh = (label: string) => {
      flush();
      const last = out.at(-1);
      expect(last?.type === "problems" && last.version, label).toBe(version);
      expect({ ...last, lintMs: 0 }, label).toEqual({ ...fullLint(text), version });
      return last?.type === "problems" ? last.problems : [];
    };
    const before = fresh("initial");

    // One keystroke in a description far down (components/schemas), then undo it.
    const far = after('"description": "', Math.floor(text.length * 0.8));
    edit([{ from: far, to: far, insert: "x" }]);
    fresh("typed in a description");

    // A burst: two batches before the worker lints (composed into one change), in two distant units.
    const first = after('"summary": "', Math.floor(text.length * 0.1));
    edit([{ from: first, to: first, insert: "Fast " }]);
    const second = after('"description": "', Math.floor(text.length * 0.5));
    edit([{ from: second - 1, to: second + 3, insert: '"' }, { from: far, to: far + 1, insert: "" }]);
    fresh("two batches");

    // Script in a description far down: a new problem appears, located on the edited line.
    const at = after('"description": "', Math.floor(text.length * 0.95));
    edit([{ from: at, to: at, insert: "<script>alert(1)</script> " }]);
    const problems = fresh("script tag typed");
    const line = text.slice(0, at).split("\n").length;
    const count = (list: typeof before) => list.filter((p) => p.rule === "no-script-tags-in-markdown").length;
    expect(count(problems)).toBe(count(before) + 1);
    expect(problems.find((p) => p.rule === "no-script-tags-in-markdown" && p.line === line)).toBeDefined();
  }, 300_000);
});

describe("createLintHost's warm-up after the first lint", () => {
  const DIGITALOCEAN = new URL("../../../shared/corpus/apis-guru-npm/api/digitalocean.com.json", import.meta.url);

  /** Portico's engine, recording every batch its sessions are given. */
  function recording(batches: TextChange[][]): LintEngine {
    return {
      createSession(text, ruleset) {
        const s: LintSessionLike = PORTICO_LINT_ENGINE.createSession(text, ruleset);
        return { result: () => s.result(), update: (b) => (batches.push(...b.map((x) => [...x])), s.update(b)) };
      },
    };
  }

  /** What a fresh host opened on `text` shows (a full lint). */
  function fullLint(text: string, version: number) {
    const out: FromWorker[] = [];
    createLintHost({ engine: PORTICO_LINT_ENGINE, post: (m) => out.push(m), defer: (t) => t(), now: () => 0, warmUp: false })({ type: "open", version, text });
    return out[0];
  }

  for (const [name, load] of [
    ["JSON (1 MB, the chunked path)", () => readFileSync(DIGITALOCEAN, "utf8")],
    ["YAML", () => 'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get:\n      description: Reads a.\n      responses:\n        "200": {description: ok}\n'],
  ] as const) {
    it(`types one character into a description and deletes it, posts nothing, and later results equal a fresh lint (${name})`, () => {
      let text = load();
      const out: FromWorker[] = [];
      const batches: TextChange[][] = [];
      const queue: (() => void)[] = [];
      const handle = createLintHost({ engine: recording(batches), post: (m) => out.push(m), defer: (t) => queue.push(t), now: () => 0 });
      const flush = () => queue.splice(0).forEach((t) => t());
      handle({ type: "open", version: 1, text });
      flush(); // the first lint
      while (queue.length) flush(); // the warm-up, a step a task
      const spots = warmUpSpots(text);
      expect(spots.length).toBeGreaterThan(0);
      expect(batches).toEqual(spots.reverse().flatMap((at) => [[{ from: at, to: at, insert: "x" }], [{ from: at, to: at + 1, insert: "" }]]));
      expect(out).toHaveLength(1);
      // An edit elsewhere: the result is a fresh lint's of the page's text (no stray "x").
      const spot = text.indexOf("description") + 3;
      text = applyChanges(text, [{ from: spot, to: spot, insert: "Q" }]);
      handle({ type: "edit", version: 2, changes: [{ from: spot, to: spot, insert: "Q" }] });
      flush();
      expect({ ...out.at(-1), lintMs: 0 }).toEqual(fullLint(text, 2));
    }, 120_000);
  }

  it("deletes the character before the page's edits when an edit arrives between typing and deleting", () => {
    let text = readFileSync(DIGITALOCEAN, "utf8");
    const out: FromWorker[] = [];
    const batches: TextChange[][] = [];
    const queue: (() => void)[] = [];
    // Tasks run newest first here, so the page's lint comes before the warm-up's own deletion.
    const handle = createLintHost({ engine: recording(batches), post: (m) => out.push(m), defer: (t) => queue.push(t), now: () => 0 });
    const runLast = () => queue.splice(0).reverse().forEach((t) => t());
    handle({ type: "open", version: 1, text });
    runLast();
    runLast(); // typed
    const at = warmUpSpots(text).at(-1)!;
    const spot = Math.floor(text.length * 0.9);
    const change = { from: spot, to: spot, insert: " " };
    text = applyChanges(text, [change]);
    handle({ type: "edit", version: 2, changes: [change] });
    runLast(); // the lint, then the warm-up, which stops: the page's edits have reached the session
    runLast();
    expect(queue).toEqual([]);
    expect(batches).toEqual([[{ from: at, to: at, insert: "x" }], [{ from: at, to: at + 1, insert: "" }], [change]]);
    expect({ ...out.at(-1), lintMs: 0 }).toEqual(fullLint(text, 2));
  }, 120_000);

  it("is skipped when an edit is already waiting, and finds no spot in a text without descriptions", () => {
    const { calls, handle, flush } = host();
    handle({ type: "open", version: 1, text: "openapi: 3.1.0\ninfo:\n  description: About.\n" });
    flush(); // the first lint; the warm-up is queued
    handle({ type: "edit", version: 2, changes: [{ from: 0, to: 0, insert: "# c\n" }] });
    flush(); // the warm-up finds the edit waiting
    flush();
    expect(calls).toEqual(["create:43", "update:1"]);
    expect(warmUpSpots('{"openapi": "3.1.0", "paths": {}}')).toEqual([]);
    expect(warmUpSpots('{"info": {"description": "About"}}')).toEqual([26]);
    expect(warmUpSpots("info:\n  description: About\n")).toEqual([21]);
    const three = '{"a": {"description": "A"}, "b": {"description": "B"}, "c": {"description": "C"}, "d": {"description": "D"}}';
    expect(warmUpSpots(three).map((at) => three[at])).toEqual(["B", "C", "D"]);
  });

  it("does not warm a text that does not parse, and stops after a step as slow as a full lint", () => {
    const broken: TextChange[][] = [];
    const queue: (() => void)[] = [];
    const flush = () => {
      while (queue.length) queue.splice(0).forEach((t) => t());
    };
    const handle = createLintHost({ engine: recording(broken), post: () => {}, defer: (t) => queue.push(t) });
    handle({ type: "open", version: 1, text: '{"openapi": "3.1.0", "info": {"description": "About", ' });
    flush();
    expect(broken).toEqual([]);

    // Each update takes as long as the first lint (100 ms on this clock): one place is typed and deleted, no more.
    let clock = 0;
    const calls: string[] = [];
    const slow: LintEngine = {
      createSession(text) {
        clock += 100;
        const inner = fakeEngine(calls).createSession(text);
        return { result: inner.result, update: (b) => ((clock += 100), inner.update(b)) };
      },
    };
    const text = ["a", "b", "c", "d"].map((k) => `${k}:\n  description: About ${k}\n`).join("");
    expect(warmUpSpots(text)).toHaveLength(3);
    const host2 = createLintHost({ engine: slow, post: () => {}, defer: (t) => queue.push(t), now: () => clock });
    host2({ type: "open", version: 1, text });
    flush();
    expect(calls).toEqual([`create:${text.length}`, "update:1", "update:1"]);
  });
});
