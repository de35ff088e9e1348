// `BENCH_ONLY=mcp`: the MCP server and the embed (issue 31) over HTTP against `wrangler dev`, on GitHub's REST
// description: `tools/call search_docs` and `get_operation` p50/p95 through the official TypeScript client
// (StreamableHTTPClientTransport; goal p95 <= 50 ms locally), the size of `get_operation` for every operation (the
// largest named; goal <= 60 KB, as pages), the Docs API search beside it, and embed.js gzipped (goal <= 30 KB).
// Prints figures; asserts nothing. BENCH_MCP_SEARCHES (search calls, 200).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const SPEC = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const SEARCHES = Number(process.env.BENCH_MCP_SEARCHES ?? 200);
const QUERIES = ["create a repository", "list pull requests", "get a repository", "merge a pull request", "webhooks", "create an issue comment", "list commits", "delete a branch protection", "actions secrets", "upload a release asset", "search code", "get the authenticated user", "list organization members", "check runs", "gists", "rate limit", "create a deployment", "dependabot alerts", "list workflow runs", "star a repository"];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return { out, ms: performance.now() - t0 };
}

export async function main() {
  console.log("== mcp: MCP tools over HTTP on GitHub's REST description (wrangler dev, local; official TypeScript client) ==");
  const server = await startDevServer();
  try {
    const token = await createPortal(server.baseUrl, server.adminToken, "bench");
    const res = await fetch(`${server.baseUrl}/v1/apis/upload?api=github&version=1`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: readFileSync(SPEC) });
    if (res.status !== 201) throw new Error(`publish: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const spec = JSON.parse(readFileSync(SPEC, "utf8"));
    const ids = Object.values(spec.paths).flatMap((item) => ["get", "put", "post", "patch", "delete", "head", "options", "trace"].filter((m) => item[m]?.operationId).map((m) => item[m].operationId));
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/p/bench/mcp`)));
    // Warm the isolate, the index and the model caches (not counted).
    for (let i = 0; i < 20; i++) await client.callTool({ name: "search_docs", arguments: { query: QUERIES[i % QUERIES.length] } });
    for (let i = 0; i < 20; i++) await client.callTool({ name: "get_operation", arguments: { api: "github", operationId: ids[i] } });
    const search = [];
    for (let i = 0; i < SEARCHES; i++) {
      const r = await timed(() => client.callTool({ name: "search_docs", arguments: { query: QUERIES[i % QUERIES.length], limit: 10 } }));
      if (r.out.isError) throw new Error(`search_docs: ${JSON.stringify(r.out.content)}`);
      search.push(r.ms);
    }
    // The same queries through the search box's own route, for the MCP layer's share.
    const plain = [];
    for (let i = 0; i < SEARCHES; i++) plain.push((await timed(() => fetch(`${server.baseUrl}/p/bench/search.json?q=${encodeURIComponent(QUERIES[i % QUERIES.length])}&limit=10`).then((r) => r.arrayBuffer()))).ms);
    const op = [];
    let largest = { id: "", bytes: 0, truncated: false };
    let over60 = 0;
    for (const id of ids) {
      const r = await timed(() => client.callTool({ name: "get_operation", arguments: { api: "github", operationId: id } }));
      if (r.out.isError) throw new Error(`get_operation ${id}: ${JSON.stringify(r.out.content)}`);
      op.push(r.ms);
      const bytes = Buffer.byteLength(JSON.stringify(r.out.structuredContent));
      if (bytes > 60 * 1024) over60++;
      if (bytes > largest.bytes) largest = { id, bytes, truncated: r.out.structuredContent.truncated };
    }
    const largestUrl = (await client.callTool({ name: "get_operation", arguments: { api: "github", operationId: largest.id } })).structuredContent.url;
    const page = await timed(() => client.callTool({ name: "get_page", arguments: { url: largestUrl } }));
    await client.close();
    const embed = await (await fetch(`${server.baseUrl}/p/bench/embed.js`)).arrayBuffer();
    console.log(`tools/call search_docs   (${search.length} calls, ${QUERIES.length} queries): p50 ${ms(pct(search, 50))}  p95 ${ms(pct(search, 95))}  (goal p95 <= 50 ms)`);
    console.log(`GET search.json, same queries (the route the search box calls): p50 ${ms(pct(plain, 50))}  p95 ${ms(pct(plain, 95))}`);
    console.log(`tools/call get_operation (${op.length} operations, every one):  p50 ${ms(pct(op, 50))}  p95 ${ms(pct(op, 95))}  max ${ms(Math.max(...op))}`);
    console.log(`largest get_operation: ${largest.id}, ${kb(largest.bytes)} of structured JSON${largest.truncated ? " (page budget reached)" : ""}; operations over 60 KB: ${over60} (goal: none)`);
    console.log(`get_page of that operation (Markdown): ${kb(Buffer.byteLength(page.out.content[0].text))} in ${ms(page.ms)}`);
    console.log(`embed.js: ${kb(embed.byteLength)}, ${kb(gzipSync(Buffer.from(embed), { level: 9 }).byteLength)} gzipped (goal <= 30 KB)`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
