// The peers of bench/render-peers.mjs served like a CDN would: one HTML page per renderer (Redoc, Scalar's API
// reference, Swagger UI) loading its standalone bundle and the definition from the same local server, every
// response gzipped. Listens on 127.0.0.1, random port.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const NM = new URL("../node_modules/", import.meta.url).pathname;
const version = (pkg) => JSON.parse(readFileSync(join(NM, pkg, "package.json"), "utf8")).version;
const html = (head, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>GitHub REST API</title>${head}</head><body>${body}</body></html>`;

const PAGES = {
  "/redoc.html": html("", `<redoc spec-url="/spec.json"></redoc><script src="/redoc.standalone.js"></script>`),
  // No web fonts (they live on Scalar's CDN) and no agent (it calls Scalar's servers).
  "/scalar.html": html("", `<div id="app"></div><script src="/scalar.js"></script><script>Scalar.createApiReference("#app", { url: "/spec.json", withDefaultFonts: false, agent: { disabled: true } })</script>`),
  "/swagger.html": html(`<link rel="stylesheet" href="/swagger-ui.css">`, `<div id="swagger-ui"></div><script src="/swagger-ui-bundle.js"></script><script>SwaggerUIBundle({ url: "/spec.json", dom_id: "#swagger-ui", deepLinking: true })</script>`),
};

const ASSETS = {
  "/redoc.standalone.js": "redoc/bundles/redoc.standalone.js",
  "/scalar.js": "@scalar/api-reference/dist/browser/standalone.js",
  "/swagger-ui-bundle.js": "swagger-ui-dist/swagger-ui-bundle.js",
  "/swagger-ui.css": "swagger-ui-dist/swagger-ui.css",
};

const TYPES = { html: "text/html; charset=utf-8", js: "text/javascript", css: "text/css", json: "application/json" };

/**
 * Starts the server. `specPath`: the definition served at /spec.json.
 * @returns {Promise<{ url: string, versions: { redoc: string, scalar: string, swagger: string }, close: () => Promise<void> }>}
 */
export async function servePeers(specPath) {
  const files = new Map();
  const add = (path, body) => files.set(path, { type: TYPES[path.split(".").pop()], gz: gzipSync(body, { level: 6 }) });
  for (const [path, body] of Object.entries(PAGES)) add(path, body);
  for (const [path, file] of Object.entries(ASSETS)) add(path, readFileSync(join(NM, file)));
  add("/spec.json", readFileSync(specPath));
  const server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? "/", "http://x").pathname);
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": file.type, "content-encoding": "gzip", "content-length": file.gz.length, "cache-control": "no-store" });
    res.end(file.gz);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    versions: { redoc: version("redoc"), scalar: version("@scalar/api-reference"), swagger: version("swagger-ui-dist") },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
