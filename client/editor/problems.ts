/**
 * @module Problems as the editor shows them: normalised from the lint engine, mapped to source offsets, and to
 * the Visual view's sections and fields.
 */
import { isWithin, normalizePath } from "./pointer";
import type { EditorProblem, OutlineEntry, Severity } from "./protocol";

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warn: 1, info: 2, hint: 3 };

/** Maps anything a lint engine reports (`warning`, numeric Spectral severities, arrays as paths) to our shape. */
export function normalizeProblem(raw: { severity?: unknown; rule?: unknown; code?: unknown; message?: unknown; line?: unknown; column?: unknown; path?: unknown }): EditorProblem {
  const s = raw.severity;
  const severity: Severity =
    s === "error" || s === 0 ? "error" : s === "warn" || s === "warning" || s === 1 ? "warn" : s === "info" || s === 2 ? "info" : s === "hint" || s === 3 ? "hint" : "warn";
  return {
    severity,
    rule: String(raw.rule ?? raw.code ?? "unknown"),
    message: String(raw.message ?? ""),
    line: Math.max(1, Number(raw.line) || 1),
    column: Math.max(1, Number(raw.column) || 1),
    path: normalizePath(raw.path),
  };
}

/** Sorts by line, then column, then severity (errors first). Returns a new array. */
export function sortProblems(problems: readonly EditorProblem[]): EditorProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

/**
 * Whether two problem lists are the same, item by item (severity, rule, message, line, column, path). A
 * keystroke usually leaves a long list as it was: keeping the old array then lets memoised views skip it.
 */
export function sameProblems(a: readonly EditorProblem[], b: readonly EditorProblem[]): boolean {
  return sameItems(a, b, (p, q) => p.line === q.line && p.column === q.column && p.severity === q.severity && p.rule === q.rule && p.message === q.message && p.path === q.path);
}

/** Whether two lists have the same length and `same` holds for each pair of items at one index (true at once for one array). */
function sameItems<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
  return true;
}

/** The worst severity among problems, or undefined for none. */
export function worstSeverity(problems: readonly EditorProblem[]): Severity | undefined {
  let worst: Severity | undefined;
  for (const p of problems) if (!worst || SEVERITY_RANK[p.severity] < SEVERITY_RANK[worst]) worst = p.severity;
  return worst;
}

/** Minimal view of a text by lines, as CodeMirror's `Text` provides it. */
export interface LineSource {
  lines: number;
  line(n: number): { from: number; to: number };
}

/**
 * The source range a problem marks: from its line/column (clamped into the text) to the end of that line's
 * content, or one character when the column is at the end.
 */
export function problemRange(doc: LineSource, problem: Pick<EditorProblem, "line" | "column">): { from: number; to: number } {
  const n = Math.min(Math.max(1, problem.line), doc.lines);
  const line = doc.line(n);
  const from = Math.min(line.from + Math.max(0, problem.column - 1), line.to);
  return { from, to: Math.max(from, line.to) };
}

/**
 * Where a rule that reports a missing member points: the parent object. Showing it on the member's field is
 * what a writer expects (operation-operationId on the operationId box).
 */
const RULE_FIELD: Record<string, string> = {
  "operation-operationId": "operationId",
  "operation-description": "description",
  "operation-summary": "summary",
  "operation-tags": "tags",
  "operation-success-response": "responses",
  "info-contact": "contact",
  "info-description": "description",
  "info-license": "license",
  "license-url": "url",
  "contact-properties": "name",
  "oas3-api-servers": "servers",
  "oas2-api-host": "host",
  "oas2-api-schemes": "schemes",
  "tag-description": "description",
};

/** The pointer of the field a problem belongs to: its path, or the member a "missing member" rule names. */
export function problemFieldPointer(problem: Pick<EditorProblem, "rule" | "path">): string {
  const member = RULE_FIELD[problem.rule];
  if (!member) return problem.path;
  return problem.path.endsWith("/" + member) ? problem.path : `${problem.path}/${member}`;
}

/** The outline entry a problem belongs to: the one with the longest pointer containing it, else General. */
export function sectionForPointer(outline: readonly OutlineEntry[], pointer: string): OutlineEntry | undefined {
  let best: OutlineEntry | undefined;
  for (const entry of outline) {
    const scope = entry.kind === "servers" && entry.pointer === "/host" ? "" : entry.pointer;
    if (scope === "" ? /^\/(host|basePath|schemes)(\/|$)/.test(pointer) : isWithin(pointer, scope)) {
      if (!best || entry.pointer.length > best.pointer.length) best = entry;
    }
  }
  return best ?? outline.find((e) => e.kind === "general");
}

/**
 * {@link sectionForPointer} for many pointers at once: indexes the outline by pointer, then walks each
 * pointer's ancestors (a handful of map lookups instead of a pass over the outline: GitHub's 859 problems
 * over its 2,100 entries would otherwise cost 1.8 million comparisons per lint result).
 */
export function sectionFinder(outline: readonly OutlineEntry[]): (pointer: string) => OutlineEntry | undefined {
  const byPointer = new Map<string, OutlineEntry>();
  let host: OutlineEntry | undefined;
  let general: OutlineEntry | undefined;
  for (const e of outline) {
    if (e.kind === "servers" && e.pointer === "/host") host ??= e;
    else if (!byPointer.has(e.pointer)) byPointer.set(e.pointer, e);
    if (e.kind === "general") general ??= e;
  }
  return (pointer) => {
    let best: OutlineEntry | undefined;
    for (let end = pointer.length; end > 0; end = pointer.lastIndexOf("/", end - 1)) {
      best = byPointer.get(pointer.slice(0, end));
      if (best) break;
    }
    // Swagger 2.0's "Host and schemes" entry covers three top-level keys.
    if (host && /^\/(host|basePath|schemes)(\/|$)/.test(pointer) && (!best || host.pointer.length > best.pointer.length)) best = host;
    return best ?? general;
  };
}

/**
 * Whether two outlines list the same entries (every field, tags item by item, in order). The session keeps the
 * last outline array when a new model's equals it, so the navigation and the problems' grouping by section
 * (memoised on the array) are not redone for a model refreshed after typing inside a description.
 */
export function sameOutline(a: readonly OutlineEntry[], b: readonly OutlineEntry[]): boolean {
  return sameItems(
    a,
    b,
    (x, y) =>
      x.kind === y.kind &&
      x.pointer === y.pointer &&
      x.label === y.label &&
      x.line === y.line &&
      x.method === y.method &&
      x.path === y.path &&
      x.summary === y.summary &&
      x.deprecated === y.deprecated &&
      (x.tags === undefined) === (y.tags === undefined) &&
      sameItems(x.tags ?? [], y.tags ?? [], (t, u) => t === u),
  );
}

/** Of the field pointers on screen, the one a problem should focus: exact, else the deepest ancestor. */
export function fieldForPointer(fields: readonly string[], pointer: string): string | undefined {
  let best: string | undefined;
  for (const f of fields) if (isWithin(pointer, f) && (best === undefined || f.length > best.length)) best = f;
  return best;
}
