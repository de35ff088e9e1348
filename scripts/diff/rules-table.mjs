// Rewrites the rules table of docs/diff.md from worker/openapi/diff/rules.ts (the registry is the source; the
// fixtures test checks the two agree). Run: node scripts/diff/rules-table.mjs
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const out = await build({ entryPoints: [`${root}worker/openapi/diff/rules.ts`], bundle: true, platform: "node", format: "esm", write: false, logLevel: "silent" });
const file = join(tmpdir(), `portico-diff-rules-${process.pid}.mjs`);
writeFileSync(file, out.outputFiles[0].text);
const { RULES } = await import(pathToFileURL(file).href);
rmSync(file, { force: true });
const rows = [...RULES.values()].map((r) => `| \`${r.id}\` | ${r.level} | ${r.trigger.replace(/\|/g, "\\|")} | ${r.origin === "ours" ? "ours" : "same id"} |`);
const doc = `${root}docs/diff.md`;
const text = readFileSync(doc, "utf8");
const head = "| id | level | triggered by | oasdiff |\n|---|---|---|---|\n";
const start = text.indexOf(head);
if (start === -1) throw new Error("docs/diff.md has no rules table header");
writeFileSync(doc, `${text.slice(0, start)}${head}${rows.join("\n")}\n`);
console.log(`${rows.length} rules written to docs/diff.md`);
