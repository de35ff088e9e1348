/**
 * The embeddable widgets in Chromium (issue 31), on pages served from other loopback origins than the portal's
 * `wrangler dev`: on an origin the public key lists, typing in `<portico-search>` shows results and `<portico-ask>`
 * answers with sources; on an origin it does not list, both show an error and no data; iframe mode works from the
 * listed origin. Also the MCP endpoint with the official client (StreamableHTTPClientTransport) over real HTTP.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "embed-e2e";
let key = "";
const servers: Server[] = [];

/** A page server on its own loopback port: the "customer's site". */
async function site(html: (port: number) => string): Promise<string> {
  const server = createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html(port));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const page = (mode = "") => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Help center</title>
<style>input{background:red!important} .t{color:lime!important}</style>
<script src="${baseUrl()}/p/${PORTAL}/embed.js" data-key="${key}" defer></script></head>
<body><main><h1>Help</h1><portico-search ${mode}></portico-search><portico-ask ${mode}></portico-ask></main></body></html>`;

let allowed = "";
let denied = "";
let framed = "";

const demo = demoSuite(PORTAL, async (token) => {
  allowed = await site(() => page());
  framed = await site(() => page('mode="iframe"'));
  denied = await site(() => page());
  const res = await fetch(`${baseUrl()}/v1/portal/keys`, {
    method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ kind: "public", name: "Help center", origins: [allowed, framed] }),
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`);
  key = ((await res.json()) as { key: string }).key;
});

afterAll(() => {
  for (const s of servers) s.close();
});

describe("embed widgets", () => {
  it("search shows results as you type and ask answers with sources, on an allowed origin", async () => {
    const tab = await demo.browser.newPage();
    const errors = collectErrors(tab);
    await tab.goto(allowed);
    const input = tab.locator("portico-search input");
    await input.click();
    await tab.keyboard.type("shipment");
    const first = tab.locator("portico-search [role=option] .t").first();
    await expect.poll(() => first.textContent()).toBeTruthy();
    expect(await tab.locator("portico-search [role=option]").count()).toBeGreaterThan(0);
    // The page's own CSS does not reach inside the shadow root.
    expect(await input.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(255, 0, 0)");
    // Keyboard: arrow down selects the first result.
    await tab.keyboard.press("ArrowDown");
    expect(await tab.locator("portico-search [role=option][aria-selected=true]").count()).toBe(1);
    await tab.locator("portico-ask button.fab").click();
    await tab.locator("portico-ask textarea").fill("How do I create a shipment?");
    await tab.keyboard.press("Enter");
    const sources = tab.locator("portico-ask ol li a");
    await expect.poll(() => sources.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await sources.first().getAttribute("href")).toMatch(new RegExp(`^${baseUrl()}/p/${PORTAL}/`));
    await tab.keyboard.press("Escape");
    expect(await tab.locator("portico-ask .panel").isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await tab.close();
  });

  it("shows an error and no data on an origin the key does not list", async () => {
    const tab = await demo.browser.newPage();
    await tab.goto(denied);
    await tab.locator("portico-search input").fill("shipment");
    const err = tab.locator("portico-search .err");
    await expect.poll(() => err.textContent()).toMatch(/could not be reached|refused/);
    expect(await tab.locator("portico-search li").count()).toBe(0);
    await tab.locator("portico-ask button.fab").click();
    await tab.locator("portico-ask textarea").fill("How do I create a shipment?");
    await tab.keyboard.press("Enter");
    await expect.poll(() => tab.locator("portico-ask .err").textContent()).toMatch(/could not be reached|refused/);
    expect(await tab.locator("portico-ask ol li").count()).toBe(0);
    await tab.close();
  });

  it("iframe mode shows results from the listed origin", async () => {
    const tab = await demo.browser.newPage();
    await tab.goto(framed);
    const frame = tab.frameLocator("portico-search iframe");
    await frame.locator("portico-search input").fill("shipment");
    await expect.poll(() => frame.locator("portico-search [role=option]").count()).toBeGreaterThan(0);
    await tab.close();
  });
});

describe("MCP over HTTP", () => {
  it("the official client lists and calls the tools of the demo portal", async () => {
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/p/${PORTAL}/mcp`)));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["ask_assistant", "get_operation", "get_page", "list_apis", "search_docs"]);
    const found = await client.callTool({ name: "search_docs", arguments: { query: "create shipment", kind: "operation" } });
    const hit = (found.structuredContent as { results: { api: string; operationId: string }[] }).results[0]!;
    const op = await client.callTool({ name: "get_operation", arguments: { api: hit.api, operationId: hit.operationId } });
    expect(op.isError).toBeFalsy();
    expect((op.structuredContent as { method: string }).method).toBe("POST");
    await client.close();
  });
});
