/// <reference types="node" />
/**
 * @module `portico check` (docs/git.md): the pre-merge checks of Git sync (worker/git/checks.ts, the same
 * code as the "Portico" check run) on a local folder, with `--base <git ref>` for new operations and breaking
 * changes (the base's files come from `git archive`, read with the same archive rules as a webhook's tarball).
 * Prints text, JSON or GitHub workflow annotations; exit 1 when a blocking check fails.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { CHECK_IDS, DEFAULT_BLOCKING, type CheckId, type GitPaths } from "../worker/git/config";
import { runChecks, type CheckReport } from "../worker/git/checks";
import { contentFiles, definitionSources, readRepositoryArchive, type RepoFiles } from "../worker/git/tree";
import { ARCHIVE_LIMITS } from "../worker/openapi/archive/extract";

export type CheckFormat = "text" | "json" | "github";

/** Thrown for input the command cannot use (exit 2). */
export class CheckInputError extends Error {}

const SKIP = new Set([".git", "node_modules"]);

/** The folder's files (relative `/` paths), within the archive limits, skipping .git and node_modules. */
export function folderFiles(dir: string): RepoFiles {
  const files: RepoFiles = new Map();
  let total = 0;
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(at, entry.name);
      if (entry.isSymbolicLink()) continue; // as a webhook's tarball, never followed
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        total += statSync(path).size;
        if (files.size >= ARCHIVE_LIMITS.maxEntries || total > ARCHIVE_LIMITS.maxTotalBytes) throw new CheckInputError(`${dir} holds more than ${ARCHIVE_LIMITS.maxEntries} files or ${ARCHIVE_LIMITS.maxTotalBytes} bytes`);
        files.set(relative(dir, path).split(sep).join("/"), readFileSync(path));
      }
    }
  };
  walk(dir);
  return files;
}

/** The files of `ref` for the folder `dir` (inside a git work tree), through `git archive`. */
export function baseFiles(dir: string, ref: string): RepoFiles {
  let tar: Buffer;
  try {
    const prefix = execFileSync("git", ["rev-parse", "--show-prefix"], { cwd: dir, encoding: "utf8" }).trim();
    tar = execFileSync("git", ["archive", "--format=tar", `${ref}:${prefix}`], { cwd: dir, maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    throw new CheckInputError(`--base ${ref}: git could not archive it (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`);
  }
  const tree = readRepositoryArchive(new Uint8Array(tar));
  if (!tree.ok) throw new CheckInputError(`--base ${ref}: ${tree.message}`);
  return tree.files;
}

/** `api=file,api2=file2` → the definitions' paths. */
export function parseDefinitions(value: string): GitPaths["definitions"] {
  return value.split(",").filter(Boolean).map((pair) => {
    const [api, file] = pair.split("=", 2);
    if (!api || !file) throw new CheckInputError(`--definition takes API=FILE (comma-separated), not ${pair}`);
    return { api, file: file.replace(/^\.\//, "") };
  });
}

/** Runs the checks on a folder. */
export async function checkFolder(dir: string, paths: GitPaths, base: string | undefined, blocking: CheckId[]): Promise<CheckReport> {
  const files = folderFiles(dir);
  const { sources, missing } = definitionSources(files, paths);
  if (missing.length) throw new CheckInputError(`not found in ${dir}: ${missing.join(", ")}`);
  const baseSources = base === undefined ? undefined : definitionSources(baseFiles(dir, base), paths).sources;
  return runChecks({ definitions: sources, base: baseSources, content: contentFiles(files, paths), contentPath: paths.content, blocking });
}

/** GitHub Actions' workflow command escaping (`%`, CR, LF; and `:`/`,` in properties). */
const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** The report as text, JSON, or GitHub workflow annotations (`::error file=…,line=…,title=…::message`). */
export function formatReport(report: CheckReport, format: CheckFormat): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  const out: string[] = [];
  if (format === "github") {
    const command = { failure: "error", warning: "warning", notice: "notice" } as const;
    for (const check of report.checks) {
      for (const item of check.items) {
        out.push(`::${command[item.level]} file=${escapeProperty(item.path)},line=${item.line},title=${escapeProperty(`${check.title}${item.rule ? ` (${item.rule})` : ""}`)}::${escapeData(item.message)}`);
      }
    }
  } else {
    for (const check of report.checks) {
      for (const item of check.items) out.push(`${item.path}:${item.line} ${item.level} ${check.id}${item.rule ? ` ${item.rule}` : ""} ${item.message}`);
    }
  }
  for (const check of report.checks) {
    const mark = check.passed ? "pass" : check.blocking ? "FAIL" : "warn";
    out.push(`${mark} ${check.title}: ${check.passed ? "passed" : `${check.failures} finding(s)${check.blocking ? "" : " (not blocking)"}`}${check.note ? ` (${check.note})` : ""}`);
  }
  for (const d of report.diff) out.push(`${d.api}: ${d.newApi ? "new API" : `${d.added.length} added, ${d.removed} removed, ${d.changes} change(s), ${d.breaking} breaking`}`);
  out.push(report.conclusion === "success" ? "checks passed" : "checks failed");
  return out.join("\n") + "\n";
}

/** `--blocking lint,broken-links` → check ids. */
export function parseBlocking(value: string | undefined): CheckId[] {
  if (value === undefined) return DEFAULT_BLOCKING;
  const ids = value.split(",").filter(Boolean);
  for (const id of ids) if (!(CHECK_IDS as readonly string[]).includes(id)) throw new CheckInputError(`--blocking takes check ids among ${CHECK_IDS.join(", ")}, not ${id}`);
  return ids as CheckId[];
}
