/**
 * @module The lint Web Worker's state machine: keeps a copy of the page's text in step with its edits, lints it
 * after each burst of edits, and answers Visual model, structural edit and conversion requests.
 *
 * Platform-free (no `self`): `client/entries/lint-worker.ts` wires it to `postMessage`, tests call it directly.
 */
import type { LintRuleset } from "../../worker/openapi/lint/ruleset";
import { convertFormat } from "./convert";
import type { LintEngine, LintSessionLike } from "./lint-engine";
import { normalizeProblem, sortProblems } from "./problems";
import type { FromWorker, TextChange, ToWorker } from "./protocol";
import { applyStructuralEdit } from "./structural-edit";
import { applyChanges } from "./text-changes";
import { composeBatches } from "../../worker/openapi/lint/session";
import { buildModelForText } from "./visual-model";
import { detectFormat, parseSource } from "./yaml-source";
import type { ParsedSource } from "./yaml-source";

/** Problems sent per lint at most; counts still cover all of them. */
export const MAX_SENT_PROBLEMS = 5000;

export interface LintHostOptions {
  engine: LintEngine;
  post: (message: FromWorker) => void;
  /** Runs `task` after the messages already queued (setTimeout 0 in the worker; tests pass a synchronous one). */
  defer: (task: () => void) => void;
  now?: () => number;
  /** Wall clock for {@link LintTiming} (default `performance.timeOrigin + performance.now()`). */
  wallNow?: () => number;
  /** Warm the session's incremental path after its first lint ({@link warmUpSpots}; default true). */
  warmUp?: boolean;
}

/** How many places the warm-up types at (each typed, then deleted, in tasks of their own). */
export const WARM_UP_SPOTS = 3;

/**
 * Where the warm-up types its characters: just inside a `description`'s text (after the JSON string's opening
 * quote, or before the first letter of a YAML plain scalar), the first such place from each of `count` points
 * spread over the text (a quarter, a half, three quarters for three: where a definition's paths and schemas
 * are), distinct and ascending; none when the text has no such place. A letter typed there leaves the
 * document's structure alone, as most keystrokes do.
 */
export function warmUpSpots(text: string, count = WARM_UP_SPOTS): number[] {
  const json = /^\s*[[{]/.test(text.slice(0, 64));
  const re = json ? /"description"\s*:\s*"(?=[A-Za-z])/g : /(?:^|[\s{,])description:[ \t]+(?=[A-Za-z])/gm;
  const spots = new Set<number>();
  for (let i = 1; i <= count; i++) {
    for (const from of [Math.floor((text.length * i) / (count + 1)), 0]) {
      re.lastIndex = from;
      const m = re.exec(text);
      if (m) {
        spots.add(m.index + m[0].length);
        break;
      }
    }
  }
  return [...spots].sort((x, y) => x - y);
}

/** Creates the worker's message handler. */
export function createLintHost(options: LintHostOptions): (message: ToWorker) => void {
  const { engine, post, defer } = options;
  const now = options.now ?? (() => performance.now());
  const wallNow = options.wallNow ?? (() => performance.timeOrigin + performance.now());
  /** Timing asked for by the page (`open` with `timing`), and when the last edit arrived (wall clock). */
  let timing = false;
  let editAt = 0;
  /** The text as of the last materialisation; `textEdits` since then are applied only when someone reads it. */
  let base = "";
  let textEdits: TextChange[][] = [];
  /** The current text. The lint instance never needs it per keystroke (its session takes changes), so it is built on demand. */
  const text = (): string => {
    // Composed first: applying edits one by one would copy the whole (13 MB) text once per edit.
    const combined = textEdits.length > 1 ? composeBatches(base, textEdits) : undefined;
    if (combined) base = applyChanges(base, [combined]);
    else for (const changes of textEdits) base = applyChanges(base, changes);
    textEdits = [];
    return base;
  };
  let ruleset: LintRuleset | undefined;
  let version = 0;
  let session: LintSessionLike | undefined;
  /** Edit batches since the last lint, each relative to the text before it. */
  let pending: TextChange[][] = [];
  let lintQueued = false;
  let lints = true;
  let parsed: { version: number; source: ParsedSource } | undefined;
  /**
   * The warm-up (issue 12): the first keystrokes after the load took 2–4 times the later ones in the worker
   * (code the full lint never ran, and the first young-generation collections copying what the full lint left
   * alive). After a session's first lint, while no edit is waiting, one character is typed into the session at
   * each of {@link warmUpSpots} and deleted again in the next task, so the text is the page's once more and
   * the session's result what it was (its updates equal a fresh lint after any edits). Each step is a task of
   * its own, so a keystroke waits for one update at most; nothing is posted. `warmUndo`: the deletion not yet
   * applied; the next lint applies it before the page's edits.
   */
  const warms = options.warmUp !== false;
  let warmUndo: TextChange | undefined;
  /** Places still to type at (offsets in the text of the session's first lint); cleared once the page's edits reach the session. */
  let warmSpots: number[] | undefined;
  /** A warm-up step slower than this (a quarter of the first lint, ms) ends the warm-up. */
  let warmLimit = Infinity;

  const warmStep = (s: LintSessionLike) => {
    if (session !== s) return;
    let change: TextChange;
    if (warmUndo) {
      change = warmUndo;
      warmUndo = undefined;
    } else {
      // The page is typing: its edits warm the session now (and the spots' offsets no longer hold).
      if (pending.length || lintQueued) warmSpots = [];
      const at = (warmSpots ??= warmUpSpots(text())).pop();
      if (at === undefined) return;
      change = { from: at, to: at, insert: "x" };
      warmUndo = { from: at, to: at + 1, insert: "" };
    }
    try {
      const started = now();
      s.update([[change]]);
      // Not incremental after all (a full parse costs about what the first lint did): one step was enough.
      if (now() - started > warmLimit) warmSpots = [];
    } catch {
      // The engine promises not to throw; if it does, the next edit starts a new session (as in `lint`).
      session = undefined;
      warmUndo = undefined;
      return;
    }
    defer(() => warmStep(s));
  };

  const lint = () => {
    lintQueued = false;
    const startAt = timing ? wallNow() : 0;
    const started = now();
    let raw;
    try {
      if (!session) {
        session = engine.createSession(text(), ruleset);
        raw = session.result();
        // A text that does not parse is parsed whole on every update: nothing to warm.
        if (warms && !raw.problems.some((p) => p.rule === "parser")) {
          const s = session;
          warmSpots = undefined;
          warmLimit = (now() - started) / 4;
          defer(() => warmStep(s));
        }
      } else {
        // The warm-up's character goes first: the page's edits are relative to the text without it.
        raw = session.update(warmUndo ? [[warmUndo], ...pending] : pending);
        warmUndo = undefined;
        warmSpots = [];
      }
    } catch (e) {
      // The engine promises not to throw; if it does, say so in the panel and start afresh on the next edit.
      session = undefined;
      warmUndo = undefined;
      raw = { problems: [{ severity: "error", rule: "lint-failure", message: `The linter failed: ${e instanceof Error ? e.message : String(e)}`, line: 1, column: 1, path: [] }] };
    }
    pending = [];
    const all = sortProblems(raw.problems.map(normalizeProblem));
    post({
      type: "problems",
      version,
      problems: all.slice(0, MAX_SENT_PROBLEMS),
      errors: all.filter((p) => p.severity === "error").length,
      warnings: all.filter((p) => p.severity === "warn").length,
      lintMs: now() - started,
      ...(timing ? { timing: { editAt, startAt, postAt: wallNow() } } : {}),
    });
  };
  const queueLint = () => {
    if (lintQueued || !lints) return;
    lintQueued = true;
    defer(lint);
  };
  const source = () => {
    if (parsed?.version !== version) parsed = { version, source: parseSource(text()) };
    return parsed.source;
  };

  return (msg) => {
    // Diagnostics come first: a queued lint runs before any slower request is answered.
    if (lintQueued && (msg.type === "model" || msg.type === "structural" || msg.type === "convert")) lint();
    switch (msg.type) {
      case "open":
        // Bytes decode as the page decoded them (UTF-8, BOM dropped, invalid sequences replaced).
        base = msg.bytes ? new TextDecoder().decode(msg.bytes) : (msg.text ?? "");
        textEdits = [];
        ruleset = msg.ruleset;
        version = msg.version;
        lints = msg.lint !== false;
        timing = msg.timing === true;
        if (timing) editAt = wallNow();
        session = undefined;
        warmUndo = undefined;
        pending = [];
        queueLint();
        return;
      case "edit":
        if (timing) editAt = wallNow();
        textEdits.push(msg.changes);
        // Bounded: a long session folds its edits into one change now and then (reading only slices of the text).
        if (textEdits.length >= 1000) {
          const combined = composeBatches(base, textEdits);
          textEdits = combined ? [[combined]] : [];
        }
        version = msg.version;
        if (lints) pending.push(msg.changes);
        queueLint();
        return;
      case "model": {
        let model;
        try {
          model = buildModelForText(text(), version, msg.pointers, source);
        } catch (e) {
          model = { version, format: detectFormat(text()), outline: [], pointers: msg.pointers, values: {}, slots: {}, lines: {}, parseError: { message: e instanceof Error ? e.message : String(e), line: 1 } };
        }
        post({ type: "model", id: msg.id, version, model });
        return;
      }
      case "structural": {
        if (msg.version !== version) return post({ type: "structural", id: msg.id, version, error: "stale" });
        const r = guard(() => applyStructuralEdit(text(), msg.op));
        return post(r.ok ? { type: "structural", id: msg.id, version, change: r.change } : { type: "structural", id: msg.id, version, error: r.message });
      }
      case "convert": {
        if (msg.version !== version) return post({ type: "convert", id: msg.id, version, error: "stale" });
        const r = guard(() => convertFormat(text(), msg.to));
        return post(r.ok ? { type: "convert", id: msg.id, version, text: r.text, lostComments: r.lostComments } : { type: "convert", id: msg.id, version, error: r.message });
      }
    }
  };
}

/** Runs an edit or conversion; an unexpected exception becomes a refusal so the page's request still settles. */
function guard<T extends { ok: boolean }>(run: () => T): T | { ok: false; message: string } {
  try {
    return run();
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
