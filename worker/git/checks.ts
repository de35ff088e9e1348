/**
 * @module The pre-merge checks (docs/git.md, "Checks"): the same code behind the "Portico" check run, the
 * GitLab commit status and `portico check`. Platform-free: it takes the files of a revision (and of its base),
 * builds each definition, compiles the content folder, and reports four checks with file and line per finding:
 *
 * - `lint`: the definition's lint with the portal's ruleset (portico.yaml `lint:`); errors fail, warnings are notices.
 * - `broken-links`: guides to operations, guides to guides, anchors, images (content/compile.ts's link checks).
 * - `undocumented-operations`: each operation the revision adds has a summary, a description, and is linked from
 *   a guide or code steps page, or from a changelog entry.
 * - `breaking-changes`: the diff engine's ERR-level changes against the base (rule id per change).
 *
 * The conclusion is failure when a check listed in `blocking` fails; a failing non-blocking check is reported
 * with warnings only.
 */
import { buildReference, type BuildSuccess } from "../openapi/build";
import { diff, sideFromBuild, type Change } from "../openapi/diff";
import type { LintRuleset } from "../openapi/lint/ruleset";
import { compileBundle, type CompiledRelease } from "../content/compile";
import type { OperationIndex } from "../content/types";
import { lintForUpload } from "../publish/lint-step";
import { CHECK_IDS, type CheckId } from "./config";
import type { DefinitionSource, RepoFiles } from "./tree";

/** One finding, at a repository path and 1-based line. */
export interface CheckItem {
  path: string;
  line: number;
  level: "failure" | "warning" | "notice";
  message: string;
  /** Lint rule or diff rule id. */
  rule?: string;
}

export interface CheckResult {
  id: CheckId;
  title: string;
  passed: boolean;
  blocking: boolean;
  /** Findings that make the check fail (lint: errors; the others: every item). */
  failures: number;
  items: CheckItem[];
  note?: string;
}

/** A definition's changes against the base, for the pull-request comment. */
export interface DiffSummary {
  api: string;
  added: { method: string; path: string }[];
  removed: number;
  breaking: number;
  changes: number;
  newApi: boolean;
}

export interface CheckReport {
  conclusion: "success" | "failure";
  checks: CheckResult[];
  diff: DiffSummary[];
}

export interface CheckInput {
  /** The revision's definitions (tree.ts definitionSources). */
  definitions: DefinitionSource[];
  /** The base's definitions (the production branch, or `--base`); none: no new-operation or breaking-change checks. */
  base?: DefinitionSource[];
  /** The revision's content folder (paths relative to it), and where it is in the repository (`docs/`). */
  content?: RepoFiles;
  contentPath?: string;
  /** The portal's ruleset when the revision's portico.yaml has none. */
  ruleset?: LintRuleset;
  /** Operations of APIs the revision does not carry (the portal's live ones), for `op:` links. */
  otherOperations?: OperationIndex;
  blocking: readonly CheckId[];
  /** Called with the operations links resolve against (the revision's built definitions over `otherOperations`). */
  onOperations?: (index: OperationIndex) => void;
  /** Called with the compiled content folder (the preview publishes it as is instead of compiling it again). */
  onContent?: (compiled: CompiledRelease) => void;
}

/** Whether two definition sources are the same bytes at the same root (a branch that left the definition as it is). */
function sameSource(a: DefinitionSource, b: DefinitionSource): boolean {
  if (a.root !== b.root || a.contentType !== b.contentType || a.body.byteLength !== b.body.byteLength) return false;
  for (let i = 0; i < a.body.byteLength; i++) if (a.body[i] !== b.body[i]) return false;
  return true;
}

const TITLES: Record<CheckId, string> = {
  lint: "Definition valid",
  "broken-links": "Broken links",
  "undocumented-operations": "New operations documented",
  "breaking-changes": "Breaking changes",
};

function dirOf(file: string): string {
  return file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
}

function build(source: DefinitionSource): ReturnType<typeof buildReference> {
  return buildReference({ body: source.body, contentType: source.contentType, root: source.root });
}

const opKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The description of an operation in a normalised document, if any. */
function descriptionOf(document: Record<string, unknown>, path: string, method: string): string | undefined {
  const paths = document.paths as Record<string, Record<string, { description?: unknown }>> | undefined;
  const d = paths?.[path]?.[method]?.description;
  return typeof d === "string" && d.trim() ? d : undefined;
}

/** Runs the four checks. Never throws on bad input: an unbuildable definition is a lint failure at its line. */
export async function runChecks(input: CheckInput): Promise<CheckReport> {
  const lintItems: CheckItem[] = [];
  let lintFailures = 0;
  const built = new Map<string, { source: DefinitionSource; build: BuildSuccess }>();
  for (const source of input.definitions) {
    const outcome = build(source);
    if (!outcome.ok) {
      lintItems.push({ path: source.file, line: outcome.line ?? 1, level: "failure", message: outcome.message, rule: outcome.code });
      lintFailures++;
      continue;
    }
    built.set(source.api, { source, build: outcome });
  }

  // Content first: the ruleset may be in the revision's portico.yaml.
  const index: OperationIndex = new Map(input.otherOperations ?? []);
  for (const [api, { build: b }] of built) index.set(api, b.operations.filter((o) => o.kind === "operation").map((o) => ({ slug: o.slug, method: o.method, path: o.path, operationId: o.operationId ?? null })));
  input.onOperations?.(index);
  let compiled: CompiledRelease | undefined;
  if (input.content?.size) compiled = await compileBundle(input.content, index);
  if (compiled) input.onContent?.(compiled);
  const ruleset = compiled?.config.lint ?? input.ruleset;

  for (const { source, build: b } of built.values()) {
    const report = lintForUpload(b, undefined, ruleset ? { ruleset, ...(b.source.path !== undefined ? { file: b.source.path } : {}) } : {});
    for (const issue of report.issues) {
      if (issue.severity === "hint") continue;
      const path = issue.file ? dirOf(source.file) + issue.file : source.file;
      const failure = issue.severity === "error";
      if (failure) lintFailures++;
      lintItems.push({ path, line: issue.line ?? 1, level: failure ? "failure" : "notice", message: issue.message, rule: issue.rule });
    }
  }

  const contentPath = input.contentPath ?? "";
  const linkItems: CheckItem[] = (compiled?.checks.brokenLinks ?? []).map((l) => ({ path: contentPath + l.file, line: l.line, level: "failure", message: l.message, rule: `broken-${l.kind}-link` }));
  for (const p of compiled?.checks.invalidFrontMatter ?? []) linkItems.push({ path: contentPath + p.file, line: p.line, level: "failure", message: p.message, rule: "invalid-front-matter" });

  const linked = new Set<string>();
  for (const page of compiled?.pages ?? []) for (const key of page.meta.operations) linked.add(key);

  const undocumented: CheckItem[] = [];
  const breaking: CheckItem[] = [];
  const summaries: DiffSummary[] = [];
  const baseBuilt = new Map<string, BuildSuccess>();
  // A base definition of the same bytes as the revision's is not built again (GitHub's 13 MB description took
  // seconds more per pull request that changed only guides): nothing was added and nothing can break.
  const unchanged = new Set<string>();
  for (const source of input.base ?? []) {
    const mine = built.get(source.api);
    if (mine && sameSource(mine.source, source)) {
      baseBuilt.set(source.api, mine.build);
      unchanged.add(source.api);
      continue;
    }
    const outcome = build(source);
    if (outcome.ok) baseBuilt.set(source.api, outcome);
  }
  if (input.base) {
    for (const [api, { source, build: b }] of built) {
      const base = baseBuilt.get(api);
      const before = new Set(base?.operations.map((o) => opKey(o.method, o.path)) ?? []);
      const added = unchanged.has(api) ? [] : b.operations.filter((o) => o.kind === "operation" && !before.has(opKey(o.method, o.path)));
      for (const op of added) {
        const where = b.source.parsed.locate(["paths", op.path, op.method]) ?? { line: 1 };
        const missing: string[] = [];
        if (!op.summary?.trim()) missing.push("a summary");
        if (!descriptionOf(b.document, op.path, op.method)) missing.push("a description");
        if (!linked.has(`${api}#${op.slug}`)) missing.push("a link from a guide, code steps page or changelog entry");
        if (missing.length) {
          undocumented.push({ path: source.root ? dirOf(source.file) + (b.source.path ?? source.root) : source.file, line: where.line, level: "failure", rule: "undocumented-operation",
            message: `${op.method.toUpperCase()} ${op.path} is new and lacks ${missing.join(" and ")}` });
        }
      }
      let changes: Change[] = [];
      if (base && !unchanged.has(api)) {
        const result = diff(sideFromBuild(base), sideFromBuild(b));
        changes = result.changes;
        for (const change of changes.filter((c) => c.level === "ERR")) {
          breaking.push({ path: source.file, line: change.revisionLine ?? 1, level: "failure", rule: change.id, message: `${change.id}: ${change.message}` });
        }
      }
      const after = new Set(b.operations.map((o) => opKey(o.method, o.path)));
      summaries.push({
        api, newApi: !base, added: added.map((o) => ({ method: o.method.toUpperCase(), path: o.path })),
        removed: base ? base.operations.filter((o) => o.kind === "operation" && !after.has(opKey(o.method, o.path))).length : 0,
        breaking: changes.filter((c) => c.level === "ERR").length, changes: changes.length,
      });
    }
  }

  const blocking = new Set(input.blocking);
  const result = (id: CheckId, items: CheckItem[], failures: number, note?: string): CheckResult => {
    const isBlocking = blocking.has(id);
    // A failing check that does not block is told as warnings.
    const shown = isBlocking ? items : items.map((i) => (i.level === "failure" ? { ...i, level: "warning" as const } : i));
    return { id, title: TITLES[id], passed: failures === 0, blocking: isBlocking, failures, items: shown, ...(note ? { note } : {}) };
  };
  const noBase = input.base ? undefined : "no base to compare with";
  const checks = [
    result("lint", lintItems, lintFailures),
    result("broken-links", linkItems, linkItems.length, input.content ? undefined : "no content folder"),
    result("undocumented-operations", undocumented, undocumented.length, noBase),
    result("breaking-changes", breaking, breaking.length, noBase),
  ];
  checks.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
  return { conclusion: checks.some((c) => !c.passed && c.blocking) ? "failure" : "success", checks, diff: summaries };
}

/** The check run's title: the failing checks, or that all passed. */
export function reportTitle(report: CheckReport): string {
  const failing = report.checks.filter((c) => !c.passed);
  if (!failing.length) return "All checks passed";
  return failing.map((c) => `${c.title}: ${c.failures}`).join(" · ");
}

/** The summary in Markdown: one line per check, then the diff per API. */
export function reportSummary(report: CheckReport, previewUrl?: string): string {
  const lines = report.checks.map((c) => {
    const mark = c.passed ? "✅" : c.blocking ? "❌" : "⚠️";
    return `- ${mark} **${c.title}**: ${c.passed ? "passed" : `${c.failures} finding(s)${c.blocking ? "" : " (not blocking)"}`}${c.note ? ` (${c.note})` : ""}`;
  });
  if (previewUrl) lines.push("", `Preview: ${previewUrl}`);
  if (report.diff.length) lines.push("", diffSummaryMarkdown(report));
  return lines.join("\n");
}

/** The diff per API in Markdown (the pull-request comment and the check run's summary share it). */
export function diffSummaryMarkdown(report: CheckReport): string {
  const rows = report.diff.map((d) => {
    if (d.newApi) return `- \`${d.api}\`: new API (${d.added.length} operations)`;
    const added = d.added.length ? `${d.added.length} added (${d.added.slice(0, 5).map((a) => `\`${a.method} ${a.path}\``).join(", ")}${d.added.length > 5 ? ", …" : ""})` : "0 added";
    return `- \`${d.api}\`: ${added}, ${d.removed} removed, ${d.changes} change(s), ${d.breaking} breaking`;
  });
  return ["**API changes**", ...rows].join("\n");
}
