#!/usr/bin/env node
// `portico lint <definition> [--ruleset <file>] [--format text|json]`: lints a Swagger 2.0 / OpenAPI 3.x
// definition (JSON or YAML) with the engine uploads and the editor use (worker/openapi/lint, bundled on the fly
// with esbuild), under the portal's ruleset: the `lint:` section of a portico.yaml, or a Spectral ruleset file
// (`.spectral.yaml`, read whole). Without --ruleset, ./portico.yaml is used when it exists.
// Exit status: 0 without errors, 1 with errors, 2 when the command or the ruleset is wrong.
import { build } from "esbuild";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parse } from "yaml";

const ROOT = new URL("..", import.meta.url).pathname;
const USAGE = "usage: portico lint <definition> [--ruleset portico.yaml | .spectral.yaml] [--format text|json]";

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args[0] !== "lint" || args.length < 2) fail(USAGE);
let file;
let rulesetFile;
let format = "text";
for (let i = 1; i < args.length; i++) {
  if (args[i] === "--ruleset") rulesetFile = args[++i];
  else if (args[i] === "--format") format = args[++i];
  else if (args[i].startsWith("--")) fail(`unknown option ${args[i]}\n${USAGE}`);
  else if (file === undefined) file = args[i];
  else fail(USAGE);
}
if (!file || !["text", "json"].includes(format)) fail(USAGE);
if (rulesetFile === undefined && existsSync("portico.yaml")) rulesetFile = "portico.yaml";

const dir = mkdtempSync(join(tmpdir(), "portico-cli-"));
let lint;
try {
  const outfile = join(dir, "lint.mjs");
  await build({ entryPoints: [join(ROOT, "worker/openapi/lint/cli-entry.ts")], bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], outfile, logLevel: "error" });
  lint = await import(outfile);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

let ruleset;
if (rulesetFile !== undefined) {
  let data;
  try {
    data = parse(readFileSync(rulesetFile, "utf8"));
  } catch (e) {
    fail(`${rulesetFile}: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
  }
  // portico.yaml holds the ruleset under `lint:`; a Spectral ruleset file is one whole.
  const isPortico = data && typeof data === "object" && !Array.isArray(data) && "lint" in data;
  if (isPortico || !/portico\.ya?ml$/.test(rulesetFile)) {
    const parsed = lint.parseRuleset(isPortico ? data.lint : data, isPortico ? "lint" : "ruleset");
    if (!parsed.ok) fail(parsed.problems.map((p) => `${rulesetFile}: \`${p.at}\` ${p.message}`).join("\n"));
    ruleset = parsed.ruleset;
  }
}

let text;
try {
  text = readFileSync(file, "utf8");
} catch (e) {
  fail(`${file}: ${e instanceof Error ? e.message : e}`);
}
const result = lint.lintDocument(text, ruleset ? { ruleset } : {});
if (format === "json") process.stdout.write(JSON.stringify(result, null, 2) + "\n");
else {
  const shown = relative(process.cwd(), file) || file;
  const words = { error: "error", warning: "warning", info: "information", hint: "hint" };
  for (const p of result.problems) process.stdout.write(`${shown}:${p.line}:${p.column}  ${words[p.severity].padEnd(11)} ${p.rule.padEnd(36)} ${p.message}\n`);
  process.stdout.write(`\n${result.problems.length} problems (${result.errors} errors, ${result.warnings} warnings)\n`);
}
process.exit(result.errors > 0 ? 1 : 0);
