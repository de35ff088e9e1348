/**
 * @module An editing session: lint once, then after each edit re-parse and re-run only what the edit can affect.
 * JSON is re-parsed whole (JSON.parse is fast) and reconciled with the previous data; YAML re-parses just the
 * block the edit falls in when that is sound (see source/yaml-block.ts), else the whole text. Unchanged
 * subtrees keep their identity, so the rule caches (node-rule fragments, per-unit structure validation) skip
 * them; document rules and problem locations are recomputed every time. Never throws.
 */

import { parseDocument } from "../parse";
import { planRules, runRules, type RulePlan, type RunStats } from "./engine";
import { finishProblems, type Locate, type LocationMemo } from "./locate-problems";
import { budgetProblem, ruleSettings, summarise } from "./lint-document";
import type { RawProblem, Segment } from "./rule";
import { createJsonLocator } from "../parse/json-locate";
import { reparseJsonBlock } from "./source/json-block";
import { indexJson } from "./source/json-index";
import { JsonLive } from "./source/json-live";
import { reconcile } from "./source/reconcile";
import { RefResolver } from "./util/resolver";
import { reparseBlock, type DirtyBlock, type TextChange } from "./source/yaml-block";
import { YamlOutline } from "./source/yaml-outline";
import type { LintOptions, LintProblem, LintResult, OasVersion } from "./types";
import type { FragmentCache } from "./walk/fragments";
import { detectOasVersion } from "./version";

export type { TextChange } from "./source/yaml-block";

/** How the last update was handled (for tests and benchmarks). */
export interface UpdateInfo {
  parse: "full" | "block" | "failed";
  /** Why a YAML edit was not handled as a block, when it was not. */
  reason?: string;
  stats?: RunStats;
  /** Milliseconds spent re-parsing, running rules and locating problems. */
  timings?: { parse: number; rules: number; locate: number };
}

export interface LintSession {
  /** The text the current result describes. */
  readonly text: string;
  readonly result: LintResult;
  readonly lastUpdate: UpdateInfo;
  /**
   * Applies a whole new text, or changes to the current text (offsets into the current text, sorted, not
   * overlapping, as a CodeMirror ChangeSet iterates them), and returns the fresh result.
   */
  update(next: string | TextChange | readonly TextChange[]): LintResult;
  /**
   * Applies several batches of changes made one after another (each batch's offsets refer to the text after
   * the batches before it) as one update, without building the intermediate texts.
   */
  updateBatches(batches: readonly (readonly TextChange[])[]): LintResult;
}

/** Starts a session on `text`. `options` hold for the whole session. */
export function createLintSession(text: string, options: LintOptions = {}): LintSession {
  return new Session(text, options);
}

class Session implements LintSession {
  /** The text, when it is kept as a string (YAML, small JSON); large JSON keeps it in {@link json}. */
  private plain = "";
  result: LintResult = { problems: [], errors: 0, warnings: 0 };
  lastUpdate: UpdateInfo = { parse: "full" };
  private root: Record<string, unknown> | undefined;
  /** The text `root` was parsed from (JSON), when the last update parsed. */
  private parsedText: string | undefined;
  private yaml = false;
  private outline: YamlOutline | undefined;
  /** JSON: the text's structure and line starts, moved along with block edits (large files locate without re-scanning). */
  private json: JsonLive | undefined;
  private dirty: DirtyBlock | undefined;
  private plan: RulePlan | undefined;
  private started = 0;
  private cache: FragmentCache = new WeakMap();
  /** The last run's `$ref` resolver, and the path whose value the update since then replaced (block updates). */
  private resolver: RefResolver | undefined;
  private changed: readonly Segment[] | undefined;
  /** The last run's located problems by engine problem object (see {@link Moved}). */
  private located: Map<RawProblem, LintProblem> | undefined;

  /** The options' rules to plan and the ruleset's per-problem overrides, fixed for the session. */
  private readonly settings: ReturnType<typeof ruleSettings>;

  constructor(
    text: string,
    options: LintOptions,
  ) {
    this.settings = ruleSettings(options);
    this.text = text;
    this.full();
  }

  get text(): string {
    return this.json ? this.json.text : this.plain;
  }

  set text(text: string) {
    this.plain = text;
    this.json = undefined;
  }

  /** `text.slice(from, to)` without joining a large JSON text. */
  private slice(from: number, to: number): string {
    return this.json ? this.json.slice(from, to) : this.plain.slice(from, to);
  }

  updateBatches(batches: readonly (readonly TextChange[])[]): LintResult {
    if (batches.length === 1) return this.update(batches[0]);
    return this.update(composeBatches({ slice: (from, to) => this.slice(from, to) }, batches) ?? []);
  }

  update(next: string | TextChange | readonly TextChange[]): LintResult {
    this.started = now();
    try {
      const change = typeof next === "string" ? diff(this.text, next) : merge({ slice: (from, to) => this.slice(from, to) }, Array.isArray(next) ? next : [next as TextChange]);
      if (!change) return this.result;
      const live = this.json;
      if (live && this.root) {
        // Large JSON: the edit moves the kept structure; the whole text is never rebuilt.
        const startLine = live.lineOf(change.from) + 1;
        const endLine = live.lineOf(change.to) + 1;
        const outcome = live.reparse(change);
        const root = outcome.kind === "value" ? replaceAt(this.root, outcome.path, outcome.value) : undefined;
        if (!root) {
          // `reparse` left the text as it was when it refused the edit; otherwise it applied it.
          this.text = outcome.kind === "value" ? live.text : live.slice(0, change.from) + change.insert + live.slice(change.to, Infinity);
          this.full();
          return this.result;
        }
        this.root = root;
        this.changed = outcome.kind === "value" ? outcome.path : undefined;
        const moved: Moved | undefined = outcome.kind === "value" ? { path: outcome.path, startLine, endLine, lineDelta: newlines(change.insert) - (endLine - startLine) } : undefined;
        this.lint({ parse: "block" }, (path) => live.locate(path), moved);
        return this.result;
      }
      const text = this.text.slice(0, change.from) + change.insert + this.text.slice(change.to);
      if (!this.yaml && this.root && this.parsedText === this.text && isJsonText(text)) {
        const outcome = reparseJsonBlock(this.text, text, change);
        this.text = text;
        const root = outcome.kind === "value" ? replaceAt(this.root, outcome.path, outcome.value) : undefined;
        if (!root) {
          this.full();
          return this.result;
        }
        this.root = root;
        this.parsedText = text;
        this.changed = outcome.kind === "value" ? outcome.path : undefined;
        this.lint({ parse: "block" }, jsonLocate(text));
        return this.result;
      }
      if (!this.yaml || !this.root || !this.outline || isJsonText(text)) {
        this.text = text;
        this.full();
        return this.result;
      }
      const before = this.outline;
      const after = new YamlOutline(text);
      const outcome = reparseBlock(before, after, change, this.dirty);
      this.text = text;
      this.outline = after;
      if (outcome.kind === "unsupported") {
        this.full(outcome.reason);
        return this.result;
      }
      if (outcome.kind === "error") {
        // The rest of the text parsed before and is unchanged: the block's error is the document's.
        this.dirty = { steps: outcome.steps };
        const at = after.lineOf(outcome.offset);
        const line = at + 1;
        const column = outcome.offset - after.lineStarts[at] + 1;
        this.lastUpdate = { parse: "failed" };
        this.result = summarise([{ severity: "error", rule: "parser", message: `${outcome.message} (line ${line}, column ${column})`, line, column, path: [] }]);
        return this.result;
      }
      const root = replaceAt(this.root, outcome.path, outcome.value);
      if (!root) {
        this.full("path not in the data");
        return this.result;
      }
      this.dirty = undefined;
      this.root = root;
      this.changed = outcome.path;
      this.lint({ parse: "block" }, (path) => after.locate(path));
    } catch (e) {
      // The resolver may no longer match the root the next update starts from.
      this.resolver = undefined;
      // Last line of defence: an unforeseen input must not break the editor.
      this.result = summarise([{ severity: "error", rule: "parser", message: e instanceof Error ? e.message : String(e), line: 1, column: 1, path: [] }]);
    }
    return this.result;
  }

  private full(reason?: string): void {
    this.started ||= now();
    this.dirty = undefined;
    const parsed = parseDocument(this.text);
    if (!parsed.ok) {
      const { message, line, column } = parsed.error;
      this.lastUpdate = { parse: "failed", reason };
      this.result = summarise([{ severity: "error", rule: "parser", message, line: line ?? 1, column: column ?? 1, path: [] }]);
      this.outline = undefined;
      return;
    }
    this.yaml = parsed.doc.format === "yaml";
    this.parsedText = this.text;
    this.outline = this.yaml ? new YamlOutline(this.text) : undefined;
    const text = this.text;
    if (!this.yaml && text.length >= JSON_LIVE_MIN_CHARS) this.json = new JsonLive(text);
    this.root = reconcile(this.root, parsed.doc.data as Record<string, unknown>);
    this.changed = undefined;
    // YAML: the outline locates, after full and block parses alike, so positions do not jump between edits.
    const outline = this.outline;
    const json = this.json;
    const locate: Locate = outline ? (path) => outline.locate(path) : json ? (path) => json.locate(path) : jsonLocate(text);
    this.lint({ parse: "full", reason }, locate);
  }

  /** `moved`: what the update changed, when the last run's locations away from it still hold (shifted by lines). */
  private lint(info: UpdateInfo, locate: Locate, moved?: Moved): void {
    const root = this.root!;
    const version = detectOasVersion(root);
    if (!version.ok) {
      // No run: the next one cannot carry this resolver over (its root is not the one this update made).
      this.resolver = undefined;
      this.changed = undefined;
      const at = locate(version.path);
      this.lastUpdate = info;
      this.result = summarise([{ severity: "warning", rule: version.rule, message: version.message, line: at.line, column: at.column, path: version.path }]);
      return;
    }
    const plan = this.planFor(version.version);
    const parsed = now();
    // A block update replaced one value: the references resolved elsewhere still reach the same nodes.
    const resolver = this.resolver && this.changed ? this.resolver.carry(root, this.changed) : new RefResolver(root);
    this.resolver = resolver;
    this.changed = undefined;
    const { problems, stats } = runRules(root, plan, this.cache, resolver);
    const ruled = now();
    const memo: LocationMemo = { prev: moved ? this.located : undefined, next: new Map(), carry: moved ? (p, before) => carryLocation(p, before, moved) : () => undefined };
    const located: LintProblem[] = this.settings.settle(finishProblems(root, plan, problems, locate, undefined, memo));
    this.located = memo.next;
    if (stats.budgetReached) located.push(budgetProblem());
    this.result = summarise(located);
    const done = now();
    this.lastUpdate = { ...info, stats, timings: { parse: parsed - this.started, rules: ruled - parsed, locate: done - ruled } };
    this.started = 0;
  }

  private planFor(version: OasVersion): RulePlan {
    if (this.plan?.version !== version) {
      this.plan = planRules(version, this.settings.plan);
      this.cache = new WeakMap();
      this.located = undefined;
    }
    return this.plan;
  }
}

/**
 * JSON positions: the parse module's lazy locator (indexes only the containers on the located paths) for the
 * first problems, a one-pass index of the whole text once there are many.
 */
function jsonLocate(text: string): Locate {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let lazy: ReturnType<typeof createJsonLocator> | undefined;
  let index: ReturnType<typeof indexJson> | undefined;
  let calls = 0;
  return (path) => {
    if (++calls <= 64) return (lazy ??= createJsonLocator(source))(path) ?? { line: 1, column: 1 };
    return (index ??= indexJson(source)).locate(path);
  };
}

/**
 * A block update of a large JSON text: the value at `path` was re-parsed from an edit spanning lines
 * `startLine`..`endLine` (1-based, of the text before it), which added `lineDelta` lines.
 */
interface Moved {
  path: readonly Segment[];
  startLine: number;
  endLine: number;
  lineDelta: number;
}

/**
 * The previous run's location of `p` in the text after the update `moved`, or undefined when it must be located
 * anew. A problem whose path neither contains nor lies inside the replaced value has the same nearest existing
 * path (the nodes on its path are the same), and its position (a key or value outside the edited value) moved
 * only if it lies after the edit: down by the lines the edit added, the column unchanged (its line start moved
 * as much as it did). Problems on the edited lines are located again. (A problem object whose path is related to
 * the edit is in practice new, its fragment or path item having been walked again; the path test keeps this
 * sound should a cache ever hand one back.)
 */
function carryLocation(p: RawProblem, before: LintProblem, moved: Moved): LintProblem | undefined {
  const path = p.path;
  const changed = moved.path;
  let related = true;
  for (let i = 0, n = Math.min(path.length, changed.length); i < n; i++) {
    if (path[i] !== changed[i] && String(path[i]) !== String(changed[i])) {
      related = false;
      break;
    }
  }
  if (related) return undefined;
  if (before.line < moved.startLine) return before;
  if (before.line <= moved.endLine) return undefined;
  return moved.lineDelta === 0 ? before : { ...before, line: before.line + moved.lineDelta };
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** JSON texts this long keep a {@link JsonLive} (smaller ones re-scan in less time than it takes to keep it). */
export const JSON_LIVE_MIN_CHARS = 256 * 1024;

const now = (): number => (typeof performance !== "undefined" ? performance.now() : Date.now());

function isJsonText(text: string): boolean {
  const m = /\S/.exec(text);
  return m !== null && (m[0] === "{" || m[0] === "[");
}

/** The smallest single change turning `a` into `b`. */
function diff(a: string, b: string): TextChange | undefined {
  if (a === b) return undefined;
  let start = 0;
  const max = Math.min(a.length, b.length);
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: b.slice(start, endB) };
}

/** Read access to a text by range (a string, or a large text kept in chunks). */
interface Sliceable {
  slice(from: number, to: number): string;
}

/**
 * Batches made one after another (each relative to the text after the previous) → one change relative to the
 * text before all of them, reading only that text's slices around the edited range.
 */
export function composeBatches(text: Sliceable, batches: readonly (readonly TextChange[])[]): TextChange | undefined {
  let combined: TextChange | undefined;
  for (const batch of batches) {
    if (!combined) {
      combined = merge(text, batch);
      continue;
    }
    const c: TextChange = combined;
    const grown = c.insert.length - (c.to - c.from);
    // The current text: the original before `c.from`, `c.insert`, then the original shifted by `grown`.
    const current: Sliceable = {
      slice: (from, to) => {
        let out = "";
        const insEnd = c.from + c.insert.length;
        if (from < c.from) out += text.slice(from, Math.min(to, c.from));
        if (to > c.from && from < insEnd) out += c.insert.slice(Math.max(0, from - c.from), Math.min(c.insert.length, to - c.from));
        if (to > insEnd) out += text.slice(Math.max(from, insEnd) - grown, to - grown);
        return out;
      },
    };
    const next = merge(current, batch);
    if (!next) continue;
    const fromCur = Math.min(c.from, next.from);
    const toCur = Math.max(c.from + c.insert.length, next.to);
    combined = { from: fromCur, to: toCur - grown, insert: current.slice(fromCur, next.from) + next.insert + current.slice(next.to, toCur) };
  }
  return combined;
}

/** Several changes to one text → one change spanning them. */
function merge(text: Sliceable, changes: readonly TextChange[]): TextChange | undefined {
  if (!changes.length) return undefined;
  if (changes.length === 1) return changes[0];
  const sorted = [...changes].sort((x, y) => x.from - y.from);
  const from = sorted[0].from;
  const to = Math.max(...sorted.map((c) => c.to));
  let insert = "";
  let at = from;
  for (const c of sorted) {
    insert += text.slice(at, c.from) + c.insert;
    at = c.to;
  }
  insert += text.slice(at, to);
  return { from, to, insert };
}

/**
 * `root` with the value at `path` replaced, copying the containers on the path (never mutating `root`); `root`
 * itself when the new value equals the old one. Undefined when the path does not exist.
 */
function replaceAt(root: Record<string, unknown>, path: readonly Segment[], value: unknown): Record<string, unknown> | undefined {
  let old: unknown = root;
  for (const segment of path) {
    if (old === null || typeof old !== "object" || !Object.prototype.hasOwnProperty.call(old, segment)) return undefined;
    old = (old as Record<string, unknown>)[segment as string];
  }
  const merged = reconcile(old, value);
  if (merged === old) return root;
  const copy = (node: unknown, i: number): unknown => {
    if (i === path.length) return merged;
    const segment = path[i];
    if (Array.isArray(node)) {
      const index = typeof segment === "number" ? segment : Number(segment);
      if (!Number.isInteger(index) || index < 0 || index >= node.length) throw new Missing();
      const out = [...node];
      out[index] = copy(node[index], i + 1);
      return out;
    }
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, segment)) throw new Missing();
    const out = { ...(node as Record<string, unknown>) };
    Object.defineProperty(out, segment, { value: copy((node as Record<string, unknown>)[segment as string], i + 1), writable: true, enumerable: true, configurable: true });
    return out;
  };
  try {
    return copy(root, 0) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof Missing) return undefined;
    throw e;
  }
}

class Missing extends Error {}
