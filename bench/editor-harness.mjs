// A stand-alone server for the API editor, for the benchmark: the real page shell and client bundle
// (dist/client/assets), with the three service routes the editor calls answered from memory. Listens on
// 127.0.0.1 only. `startEditorHarness({ definition, token })` → { url, close(), uploads }.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { tsImport } from "tsx/esm/api";

const ROOT = new URL("..", import.meta.url).pathname;
const ASSETS = join(ROOT, "dist/client/assets");
const TYPES = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".map": "application/json" };

export async function startEditorHarness({ definition, token = "bench-token", portal = "bench", api = "bench" }) {
  const { renderEditorPage } = await tsImport("../worker/render/editor-page.tsx", import.meta.url);
  let live = definition;
  // Bytes ready to send, as R2 holds them (encoding 13 MB per request would be the harness's cost, not the editor's).
  let liveBytes = Buffer.from(live);
  let version = 1;
  const uploads = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith("/assets/")) {
      const file = normalize(join(ASSETS, url.pathname.slice("/assets/".length)));
      if (!file.startsWith(ASSETS)) return json(404, {});
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        return res.end(body);
      } catch {
        return json(404, { error: { code: "not-found", message: url.pathname } });
      }
    }
    // The page's stylesheets (client/static, copied to dist/client; tokens.css written by build-client): without
    // them the app is not sized to the window, and the Source view and outline would lay out as one page-long column.
    if (url.pathname === "/editor.css" || url.pathname === "/tokens.css") {
      res.writeHead(200, { "content-type": TYPES[".css"] });
      return res.end(await readFile(join(ROOT, "dist/client", url.pathname.slice(1))));
    }
    if (url.pathname.startsWith(`/p/${portal}/editor`)) {
      const slug = url.pathname.split("/")[4] || undefined;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(renderEditorPage({ portal: { slug: portal, name: "Bench" }, api: slug }));
    }
    if (!url.pathname.startsWith("/v1/")) return json(404, {});
    if (req.headers.authorization !== `Bearer ${token}`) return json(401, { error: { code: "unauthorized", message: "unknown token" } });
    if (req.method === "GET" && url.pathname === "/v1/apis") return json(200, { apis: [{ slug: api, title: "Bench", liveVersion: String(version), versions: [] }] });
    if (req.method === "GET" && url.pathname === `/v1/apis/${api}/definition`) {
      res.writeHead(200, { "content-type": live.trimStart().startsWith("{") ? "application/json" : "application/yaml" });
      return res.end(liveBytes);
    }
    if (req.method === "POST" && url.pathname === "/v1/apis/upload") {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = Buffer.concat(chunks).toString("utf8");
      if (body === live) return json(200, { unchanged: true, api, version: String(version) });
      live = body;
      liveBytes = Buffer.from(live);
      version++;
      uploads.push(body);
      return json(201, { api, version: String(version), url: `/p/${portal}/reference/${api}/${version}/`, lint: { errors: 0, warnings: 0 } });
    }
    return json(404, { error: { code: "not-found", message: url.pathname } });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, editorUrl: `http://127.0.0.1:${port}/p/${portal}/editor/${api}`, token, portal, uploads, close: () => new Promise((r) => server.close(r)) };
}
