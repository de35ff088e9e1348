// Bundles every client entry (client/entries/*.ts, *.tsx) into dist/client/assets/<name>.js for Workers static
// assets, plus client/static/* copied as is. Entries are islands, the editor and its lint Web Worker.
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const entriesDir = join(root, "client/entries");
const outdir = join(root, "dist/client/assets");
mkdirSync(outdir, { recursive: true });
const all = existsSync(entriesDir)
  ? readdirSync(entriesDir).filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\./.test(f)).map((f) => join(entriesDir, f))
  : [];
// The editor and its lint worker are bundled alone, one file each: with shared chunks the browser learns of
// them only once the entry has been parsed, a second round trip before the Source view's first paint (and
// before the worker's first lint; issue 12). They share little with the islands, which stay split among themselves.
// The editor's early script (editor-early.ts) is alone too: it must stay a few KB, with nothing of the editor's.
const SINGLE = new Set(["editor.ts", "editor-early.ts", "lint-worker.ts"]);
// The embed (issue 31) is a classic script on other sites (`<script src=…/embed.js data-key defer>`): one IIFE file,
// so `document.currentScript` names it and nothing is imported from the portal's origin.
const CLASSIC = new Set(["embed.ts"]);
const single = all.filter((f) => SINGLE.has(f.split("/").pop()));
const classic = all.filter((f) => CLASSIC.has(f.split("/").pop()));
const entryPoints = all.filter((f) => !single.includes(f) && !classic.includes(f));
const common = { bundle: true, format: "esm", minify: true, sourcemap: false, target: "es2022", jsx: "automatic", jsxImportSource: "preact", logLevel: "warning" };
if (single.length > 0) await build({ ...common, entryPoints: single, outdir, splitting: false });
if (classic.length > 0) await build({ ...common, entryPoints: classic, outdir, splitting: false, format: "iife" });
if (entryPoints.length > 0) {
  await build({
    entryPoints,
    outdir,
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    sourcemap: false,
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    chunkNames: "chunks/[name]-[hash]",
    logLevel: "warning",
  });
}
const staticDir = join(root, "client/static");
if (existsSync(staticDir)) cpSync(staticDir, join(root, "dist/client"), { recursive: true });
// The design tokens alone (portico.css's :root blocks, docs/branding.md) for pages that are not reader pages but
// share the portal's look: the API editor links /tokens.css before its own editor.css. One source, so they never drift.
const portico = readFileSync(join(staticDir, "portico.css"), "utf8");
const tokens = /\/\* tokens:begin[^]*?\*\/\n([^]*?)\/\* tokens:end \*\//.exec(portico);
if (!tokens) throw new Error("client/static/portico.css: no /* tokens:begin */ … /* tokens:end */ block");
writeFileSync(join(root, "dist/client/tokens.css"), `/* The design tokens of client/static/portico.css (docs/branding.md), copied by scripts/build-client.mjs. */\n${tokens[1]}`);
console.log(`client: ${all.length} entries → dist/client/assets`);
