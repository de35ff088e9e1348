/**
 * @module The `lint` block of an upload: the lint engine's `spectral:oas` problems on the uploaded root file,
 * plus what the build itself found that lint cannot see (files of an archive, remote `$ref`s, YAML warnings).
 */
import { BudgetExceeded, createBudget, UNLIMITED, type WorkBudget } from "../openapi/work-budget";
import type { BuildSuccess } from "../openapi/build";
import { lintDataCapped, type OmittedProblems } from "../openapi/lint/lint-document";
import type { LintOptions } from "../openapi/lint/types";
import { parseRef } from "../openapi/model/pointer";
import type { BuildIssue } from "../openapi/model/types";
import type { UploadIssue, UploadLint } from "./types";

/** Most issues an upload answer carries; the counts always cover all of them. */
export const MAX_ANSWER_ISSUES = 1000;

/**
 * Most lint problems of one rule an upload answer lists; the others are counted and said in one issue per rule
 * ("…and 8,400 more like this"). A 9,000-operation definition with the same two warnings on every operation
 * otherwise located 18,000 problems (seconds of a publish) to list 1,000 of them.
 */
export const MAX_ISSUES_PER_RULE = 100;

/**
 * Characters of a lint report stored on its version (D1 `versions.lint`; D1 allows 2 MB per value). A report with
 * 1,000 issues is ~250 KB; one whose messages quote huge values is cut, issues last first, and says so.
 */
export const MAX_STORED_LINT_CHARS = 1_000_000;

/** The JSON of `report` as stored on its version: at most {@link MAX_STORED_LINT_CHARS} characters. */
export function storedLintJson(report: UploadLint): string {
  let json = JSON.stringify(report);
  if (json.length <= MAX_STORED_LINT_CHARS) return json;
  // Long messages first (a fuzzed 2.5 MB value quoted in one), then fewer issues until it fits.
  let issues = report.issues.map((i) => (i.message.length > 2_000 ? { ...i, message: `${i.message.slice(0, 2_000)}…` } : i));
  for (;;) {
    json = JSON.stringify({ ...report, issues, truncated: true });
    if (json.length <= MAX_STORED_LINT_CHARS || issues.length === 0) return json;
    issues = issues.slice(0, Math.floor(issues.length / 2));
  }
}

/** 8400 → "8,400" (without Intl: its first call costs tens of milliseconds). */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** The issue that stands for a rule's problems beyond {@link MAX_ISSUES_PER_RULE}: listed first (no line). */
function omittedIssue(o: OmittedProblems): UploadIssue {
  const message = `…and ${thousands(o.count)} more like this (only the first ${MAX_ISSUES_PER_RULE} ${o.rule} problems are listed; the counts include all)`;
  return { severity: o.severity, rule: o.rule, message, line: null, column: null, path: [], more: o.count };
}

/** Build issues that the lint engine reports itself on the root file (as invalid-ref / parser / oas3-schema). */
const COVERED_BY_LINT = new Set(["unresolved-ref", "duplicate-key", "yaml-warning"]);

/** The value at `path` in `doc`, without following `$ref`s. */
function valueAt(doc: unknown, path: readonly (string | number)[]): unknown {
  let node = doc;
  for (const key of path) node = node !== null && typeof node === "object" ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

/**
 * Whether lint speaks for a build issue on the root file. Lint's invalid-ref checks local refs only: a `$ref` to
 * another file (not in the upload, or outside it, like `../../etc/passwd`) is the build's to report.
 */
function coveredByLint(issue: BuildIssue, document: unknown): boolean {
  if (!COVERED_BY_LINT.has(issue.rule)) return false;
  if (issue.rule !== "unresolved-ref") return true;
  const ref = valueAt(document, issue.path);
  return typeof ref !== "string" || parseRef(ref).kind === "local";
}

function fromBuildIssue(issue: BuildIssue): UploadIssue {
  return {
    severity: issue.severity,
    rule: issue.rule,
    message: issue.message,
    line: issue.line ?? null,
    column: issue.column ?? null,
    path: issue.path,
    ...(issue.file ? { file: issue.file } : {}),
  };
}

/**
 * Lints a built upload: CPU-bound (about a second on a 13 MB definition), so the publisher runs it while its
 * KV writes are in flight. Problems come sorted by line; the answer carries at most {@link MAX_ANSWER_ISSUES}, and
 * at most {@link MAX_ISSUES_PER_RULE} per lint rule plus one "…and N more like this" issue (sorted first).
 * Lint is advice, not a gate (except with ?strict=true): when `budget` (the publish's, with its deadline) is
 * already spent, lint is skipped; when the engine fails or runs out of budget on a hostile definition, the answer
 * carries the build's issues and a `note` saying lint was stopped, rather than failing the publish (the publish's
 * own deadline still bounds it), and likewise when `options.work` (the lint's own work units) is spent.
 * `options` carry the portal's ruleset (portico.yaml `lint:`); `extra` are the publisher's own findings (e.g.
 * `version-fallback`), listed and counted with the rest.
 */
export function lintForUpload(outcome: Pick<BuildSuccess, "issues" | "source" | "document">, budget: WorkBudget = UNLIMITED, options: LintOptions = {}, extra: readonly UploadIssue[] = []): UploadLint {
  const parsed = outcome.source.parsed;
  let all: UploadIssue[] = [];
  let omitted: OmittedProblems[] = [];
  let note: string | undefined;
  try {
    // The publish's deadline is read before lint starts; the lint's own work units (`options.work`) bound it
    // while it runs.
    budget.check("linting");
    const linted = lintDataCapped(parsed.data as Record<string, unknown>, (path) => parsed.locate(path) ?? { line: 1, column: 1 }, MAX_ISSUES_PER_RULE, options);
    all = linted.problems.map((p) => ({ ...p }));
    omitted = linted.omitted;
  } catch (error) {
    const why = error instanceof BudgetExceeded ? (options.work?.exhausted ? "it needed more work than an upload's lint is allowed" : "the publish had no time left for it") : error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
    note = `lint stopped on this definition (${why}); only the build's own findings are listed`;
  }
  for (const issue of outcome.issues) {
    // Issues in other files of an archive are the build's alone; on the root file, lint speaks for these rules
    // (unless it was stopped).
    if (!note && (issue.file === undefined || issue.file === outcome.source.path)) {
      if (coveredByLint(issue, outcome.document)) continue;
    }
    all.push(fromBuildIssue(issue));
  }
  // The publisher's own findings (the fallback version label).
  for (const issue of extra) all.push(issue);
  return finishReport(all, omitted, note);
}

/**
 * Lints within the upload's request when the lint's work fits `units` (INLINE_LINT_BUDGET.maxWork); undefined
 * when it does not, and the late lint (run by the PortalPublisher once the version is live) makes the report.
 * Size alone is no bound: a 100,000-value enum (889 KB) held the answer for 16.5 s (issue 38). The work done up
 * to the limit is thrown away: at most a fraction of a second, against a report the late lint makes anyway.
 */
export function lintInline(outcome: Pick<BuildSuccess, "issues" | "source" | "document">, units: number, budget: WorkBudget = UNLIMITED, options: LintOptions = {}, extra: readonly UploadIssue[] = []): UploadLint | undefined {
  const work = createBudget({ units });
  const report = lintForUpload(outcome, budget, { ...options, work }, extra);
  return work.exhausted ? undefined : report;
}

/**
 * The report of a definition built streamed (past 25 MiB, issue 12): the lint engine needs the whole parsed
 * document, which a 128 MB isolate cannot hold at that size, so only the build's own findings (structure, `$ref`s,
 * operationIds, info) and the publisher's are listed, with a `note` saying lint did not run. Never fails a publish.
 */
export function buildOnlyReport(issues: readonly BuildIssue[], note: string, extra: readonly UploadIssue[] = []): UploadLint {
  return finishReport([...issues.map(fromBuildIssue), ...extra], [], note);
}

/** Counts, caps and sorts a report's issues. */
function finishReport(all: UploadIssue[], omitted: OmittedProblems[], note: string | undefined): UploadLint {
  let errors = 0;
  let warnings = 0;
  for (const issue of all) {
    if (issue.severity === "error") errors++;
    else if (issue.severity === "warning") warnings++;
  }
  for (const o of omitted) {
    if (o.severity === "error") errors += o.count;
    else if (o.severity === "warning") warnings += o.count;
    all.push(omittedIssue(o));
  }
  // The "…and N more" issues have no line, so they sort first: a capped rule shows at the top of the answer.
  all.sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0));
  const issues = all.slice(0, MAX_ANSWER_ISSUES);
  return { errors, warnings, issues, ...(all.length > issues.length || omitted.length ? { truncated: true } : {}), ...(note ? { note } : {}) };
}

/**
 * A version's stored lint report (D1 `versions` row), or "pending" while the late lint of a large definition has
 * not stored it yet. Rows from before issue 12 hold only the issues array (at most 500) beside their counts.
 */
export function storedLintReport(row: { lint: string; lintErrors: number; lintWarnings: number; lintStatus: string }): UploadLint | "pending" {
  if (row.lintStatus === "pending") return "pending";
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.lint);
  } catch {
    parsed = [];
  }
  if (Array.isArray(parsed)) return { errors: row.lintErrors, warnings: row.lintWarnings, issues: parsed as UploadIssue[] };
  if (parsed !== null && typeof parsed === "object" && Array.isArray((parsed as UploadLint).issues)) return parsed as UploadLint;
  return { errors: row.lintErrors, warnings: row.lintWarnings, issues: [] };
}
