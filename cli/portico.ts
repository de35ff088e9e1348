/// <reference types="node" />
/**
 * @module The `portico` command (package.json `bin`), bundled by `npm run build:cli` into bin/portico.js so Node 22
 * runs it as it is: `portico diff BASE REVISION [--format json|text|markdown] [--fail-on ERR|WARN]` and
 * `portico lint FILE [--ruleset portico.yaml|.spectral.yaml] [--format json|text]` (the ruleset uploads and the
 * editor apply: a portico.yaml `lint:` section or a Spectral ruleset file; ./portico.yaml when there is one),
 * `portico check [DIR] --definition API=FILE[,…] [--content DOCS/] [--base REF] [--format text|json|github]
 * [--blocking CHECKS]` (Git sync's pre-merge checks, cli/check.ts) and `portico sync [DIR] …` (cli/sync.ts).
 * Exit status: 0 fine; 1 the threshold met (diff) or lint errors; 2 unreadable input (with file and line), a wrong
 * ruleset or a usage error.
 */

import { existsSync, readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { buildReference } from "../worker/openapi/build";
import { diff, sideFromBuild, type DiffSide, type Level } from "../worker/openapi/diff";
import { lintDocument } from "../worker/openapi/lint/lint-document";
import { parseRuleset } from "../worker/openapi/lint/ruleset";
import type { LintRuleset } from "../worker/openapi/lint/ruleset";
import { formatDiff, type DiffFormat } from "./format";
import { checkFolder, CheckInputError, formatReport, parseBlocking, parseDefinitions, type CheckFormat } from "./check";
import { runSync } from "./sync";

const USAGE = `usage:
  portico diff BASE REVISION [--format json|text|markdown] [--fail-on ERR|WARN]
  portico lint FILE [--ruleset portico.yaml|.spectral.yaml] [--format json|text]
  portico check [DIR] --definition API=FILE[,API=FILE] [--content DOCS/] [--base GIT-REF]
                [--format text|json|github] [--blocking lint,broken-links,undocumented-operations,breaking-changes]
  portico sync [DIR] --portal URL --token TOKEN (--branch NAME | --release LABEL | --production)
               [--definition API=FILE[,…]] [--content DOCS/]

diff exits 1 when a change at or above --fail-on (default ERR) is found, lint when an error is found;
check exits 1 when a blocking check fails; all exit 2 when a file cannot be read or parsed.`;

class Usage extends Error {}
class Unreadable extends Error {}

interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** `allowed`: each option's accepted values, or `null` for any value (a file name). */
function options(args: string[], allowed: Record<string, readonly string[] | null>): { positional: string[]; values: Record<string, string> } {
  const positional: string[] = [];
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split("=", 2);
    if (!(name in allowed)) throw new Usage(`unknown option --${name}`);
    const value = inline ?? args[++i];
    const accepted = allowed[name];
    if (value === undefined || (accepted !== null && !accepted.includes(value))) throw new Usage(accepted ? `--${name} takes one of ${accepted.join(", ")}` : `--${name} takes a value`);
    values[name] = value;
  }
  return { positional, values };
}

function read(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Unreadable(`${file}: cannot read: ${e instanceof Error ? e.message.replace(/^[A-Z]+: /, "") : String(e)}`);
  }
}

function side(file: string): DiffSide {
  const built = buildReference({ body: read(file) });
  if (!built.ok) {
    const where = built.line !== undefined ? `:${built.line}${built.column !== undefined ? `:${built.column}` : ""}` : "";
    throw new Unreadable(`${file}${where}: ${built.message}`);
  }
  return sideFromBuild(built);
}

function runDiff(args: string[], io: Io): number {
  const { positional, values } = options(args, { format: ["json", "text", "markdown"], "fail-on": ["ERR", "WARN"] });
  if (positional.length !== 2) throw new Usage("diff takes BASE and REVISION");
  const base = side(positional[0]);
  const revision = side(positional[1]);
  const result = diff(base, revision);
  io.out(formatDiff(result, (values.format ?? "text") as DiffFormat));
  const failOn = (values["fail-on"] ?? "ERR") as Level;
  const met = failOn === "WARN" ? result.counts.ERR + result.counts.WARN > 0 : result.counts.ERR > 0;
  return met ? 1 : 0;
}

/**
 * The ruleset in `file`: a portico.yaml's `lint:` section (none: undefined), or a whole Spectral ruleset file.
 * Throws {@link Unreadable} naming the field when the ruleset cannot be honoured.
 */
function rulesetOf(file: string): LintRuleset | undefined {
  let data: unknown;
  try {
    data = parseYaml(new TextDecoder().decode(read(file)));
  } catch (e) {
    if (e instanceof Unreadable) throw e;
    throw new Unreadable(`${file}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
  const isPortico = data !== null && typeof data === "object" && !Array.isArray(data) && "lint" in data;
  if (!isPortico && /portico\.ya?ml$/.test(file)) return undefined;
  const parsed = parseRuleset(isPortico ? (data as { lint: unknown }).lint : data, isPortico ? "lint" : "ruleset");
  if (!parsed.ok) throw new Unreadable(parsed.problems.map((p) => `${file}: \`${p.at}\` ${p.message}`).join("\n"));
  return parsed.ruleset;
}

function runLint(args: string[], io: Io): number {
  const { positional, values } = options(args, { format: ["json", "text"], ruleset: null });
  if (positional.length !== 1) throw new Usage("lint takes one FILE");
  const file = positional[0];
  const rulesetFile = values.ruleset ?? (existsSync("portico.yaml") ? "portico.yaml" : undefined);
  const ruleset = rulesetFile === undefined ? undefined : rulesetOf(rulesetFile);
  const bytes = read(file);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Unreadable(`${file}: not UTF-8 text`);
  }
  const result = lintDocument(text, ruleset ? { ruleset } : {});
  const parser = result.problems.find((p) => p.rule === "parser" && p.severity === "error");
  if (parser) throw new Unreadable(`${file}:${parser.line}:${parser.column}: ${parser.message}`);
  if (values.format === "json") io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    for (const p of result.problems) io.out(`${file}:${p.line}:${p.column} ${p.severity} ${p.rule} ${p.message}\n`);
    const errors = result.problems.filter((p) => p.severity === "error").length;
    io.out(`${result.problems.length} problems (${errors} errors)\n`);
  }
  return result.problems.some((p) => p.severity === "error") ? 1 : 0;
}

async function runCheck(args: string[], io: Io): Promise<number> {
  const { positional, values } = options(args, { definition: null, content: null, base: null, format: ["text", "json", "github"], blocking: null });
  if (positional.length > 1) throw new Usage("check takes at most one DIR");
  if (!values.definition && !values.content) throw new Usage("check needs --definition API=FILE and/or --content DOCS/");
  const content = values.content === undefined ? undefined : values.content.replace(/^\.\//, "").replace(/\/?$/, "/");
  const paths = { definitions: values.definition ? parseDefinitions(values.definition) : [], ...(content !== undefined ? { content: content === "./" || content === "/" ? "" : content } : {}) };
  const report = await checkFolder(positional[0] ?? ".", paths, values.base, parseBlocking(values.blocking));
  io.out(formatReport(report, (values.format ?? "text") as CheckFormat));
  return report.conclusion === "failure" ? 1 : 0;
}

/** Runs the command with `args` (without node and script); resolves to the exit status. */
export async function main(args: string[], io: Io): Promise<number> {
  try {
    const [command, ...rest] = args;
    if (command === "diff") return runDiff(rest, io);
    if (command === "lint") return runLint(rest, io);
    if (command === "check") return await runCheck(rest, io);
    if (command === "sync") return await runSync(rest, io, options);
    if (command === "--help" || command === "-h" || command === "help") {
      io.out(`${USAGE}\n`);
      return 0;
    }
    throw new Usage(command === undefined ? "no command" : `unknown command ${command}`);
  } catch (e) {
    if (e instanceof Usage) io.err(`portico: ${e.message}\n${USAGE}\n`);
    else if (e instanceof Unreadable || e instanceof CheckInputError) io.err(`portico: ${e.message}\n`);
    else io.err(`portico: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
