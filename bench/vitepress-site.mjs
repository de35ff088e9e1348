// The static-site peer of the content benchmark (issue 7): the same generated guides built with VitePress (the
// docs generator many API teams pick), with a sidebar from the same navigation groups, then served as static files
// with gzip, as a CDN would. Its build time is the build step a team runs on every change, which Portico does not need.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";

const ROOT = new URL("..", import.meta.url).pathname;
/** Inside the project so that Vite resolves `vitepress` from our node_modules; bench/.cache is git-ignored. */
const DIR = join(ROOT, "bench/.cache/vitepress");
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml", ".woff2": "font/woff2" };

/**
 * Vue compiles a VitePress page's Markdown as a template, so prose that mentions `<tag>` or `{{ x }}` outside code
 * would break its build; the real prose of the dev set does both. Outside fences, escape them as a writer would.
 */
function vueSafe(markdown) {
  let inFence = false;
  // Images of the prose's own site are not in the bundle: VitePress fails to resolve them at build time, where
  // Portico shows a broken image; keep them as links. (An image's alt text may span lines.)
  return markdown.replace(/!\[([^\]]*)\]\(/g, "[$1](").split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) { inFence = !inFence; return line; }
    if (inFence) return line;
    return line.replace(/`[^`]*`|[<>{}]/g, (m) => (m.length > 1 ? m : `&#${m.charCodeAt(0)};`));
  }).join("\n");
}

/**
 * Writes the bundle's guides as a VitePress site (front matter kept, titles as h1, sidebar = portico.yaml's
 * groups) and builds it. Returns the build's wall time in ms. Throws when the build fails.
 */
export async function buildVitePress(files) {
  rmSync(DIR, { recursive: true, force: true });
  const groups = [];
  for (const line of files["portico.yaml"].split("\n")) {
    const title = /^\s+- title: (.+)$/.exec(line);
    if (title) groups.push({ text: title[1], items: [] });
    const items = /^\s+items: \[(.+)\]$/.exec(line);
    if (items) groups[groups.length - 1].items = items[1].split(", ").map((p) => ({ text: p.split("/").pop(), link: `/${p}` }));
  }
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith(".md")) continue;
    const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    const title = /^title: "(.*)"$/m.exec(front)?.[1] ?? path;
    for (const g of groups) for (const item of g.items) if (item.link === `/${path.replace(/\.md$/, "")}`) item.text = title;
    mkdirSync(dirname(join(DIR, path)), { recursive: true });
    writeFileSync(join(DIR, path), `---\n${front}\n---\n\n# ${vueSafe(title)}\n\n${vueSafe(body)}`);
  }
  writeFileSync(join(DIR, "index.md"), "# Bench docs\n");
  mkdirSync(join(DIR, ".vitepress"), { recursive: true });
  writeFileSync(join(DIR, ".vitepress/config.mjs"), `export default ${JSON.stringify({ title: "Bench docs", cleanUrls: true, ignoreDeadLinks: true, themeConfig: { sidebar: groups } })};\n`);
  const t0 = performance.now();
  await new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, "node_modules/.bin/vitepress"), ["build", DIR], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (d) => { log += d; });
    child.stderr.on("data", (d) => { log += d; });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`vitepress build failed (${code}):\n${log.slice(-3000)}`))));
  });
  return performance.now() - t0;
}

/** Serves the built site (`.vitepress/dist`, clean URLs) gzipped on 127.0.0.1; returns its origin and a closer. */
export async function serveVitePress() {
  const dist = join(DIR, ".vitepress/dist");
  const server = createServer((req, res) => {
    let path = normalize(decodeURIComponent(req.url.split("?")[0])).replace(/^(\.\.[/\\])+/, "");
    if (path.endsWith("/")) path += "index";
    let file = join(dist, path);
    if (!extname(file)) file += ".html";
    try {
      if (!statSync(file).isFile()) throw new Error("not a file");
    } catch {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-encoding": "gzip" });
    res.end(gzipSync(readFileSync(file)));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}
