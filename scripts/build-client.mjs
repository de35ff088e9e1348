// Bundles every client entry (client/entries/*.ts, *.tsx) into dist/client/assets/<name>.js for Workers static
// assets, plus client/static/* copied as is. Entries are islands, the editor and its lint Web Worker.
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const entriesDir = join(root, "client/entries");
const outdir = join(root, "dist/client/assets");
mkdirSync(outdir, { recursive: true });
const entryPoints = existsSync(entriesDir)
  ? readdirSync(entriesDir).filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\./.test(f)).map((f) => join(entriesDir, f))
  : [];
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
console.log(`client: ${entryPoints.length} entries → dist/client/assets`);
