/** @module POSTing a definition file to a local portal the way bench/huge.mjs and bench/huge-memory.mjs both need. */
import { createReadStream, statSync } from "node:fs";
import { request } from "node:http";

/**
 * POSTs `file` streamed from disk with its Content-Length through node:http (undici's fetch broke the connection
 * (EPIPE) on wrangler dev for a 73 MB body that curl sends fine), on a connection of its own, as curl does. Resolves to `{ status, json, timing }` (timing: the Server-Timing
 * header).
 */
export function uploadFile(url, token, file) {
  return new Promise((resolve, reject) => {
    // `agent: false`: a new connection, never the kept-alive one of the previous file's upload (issue 12's "socket
    // hang up"). Node's global agent keeps sockets alive (5 s idle timeout, a timer), but spawnSync (the 128 MB child
    // build, ~20-30 s on Graph beta) blocks the event loop: neither that timer nor the server's close is seen, the
    // socket is still "free" when this request is made, and wrangler dev (workerd), which closes a connection idle
    // for 10-20 s, had long closed it: the request died before reaching the Worker (nothing published).
    // Expect: 100-continue, as curl sends it (not what kept the connection: without it, on a new connection, Graph
    // beta's 25 s publish answered 201; the hang-up once blamed on its absence was this stale socket too).
    const req = request(url, { method: "POST", agent: false, headers: { authorization: `Bearer ${token}`, "content-type": file.endsWith(".yaml") ? "application/yaml" : "application/json", "content-length": statSync(file).size, expect: "100-continue" } }, (res) => {
      const parts = [];
      res.on("data", (d) => parts.push(d));
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = { error: { code: "not-json", message: text.slice(0, 200) } };
        }
        resolve({ status: res.statusCode, json, timing: String(res.headers["server-timing"] ?? "") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.on("continue", () => createReadStream(file).pipe(req));
  });
}
