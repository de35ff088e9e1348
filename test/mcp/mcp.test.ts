/**
 * The MCP endpoint with the official TypeScript client (StreamableHTTPClientTransport) inside workerd: tools listed
 * and called, resources read, the gated guide and API only with a reader JWT (the portal's JWT settings), 401 with
 * RFC 9728 metadata for a bad token and for a private portal.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { SELF } from "cloudflare:test";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { ACCESS, BUNDLE, JWT_SECRET, MARKER, patchAccess, setUpPortal } from "../readers/fixture";
import { uploadContent } from "../content/bundles";

const SLUG = "mcp-docs";
const PRIVATE = "mcp-private";

async function readerJwt(groups: string[] = ["partners"], extra: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ sub: "user-7", email: "ada@acme.test", groups, ...extra }).setProtectedHeader({ alg: "HS256" }).setIssuedAt()
    .setIssuer("https://login.acme.test").setAudience("portico").setExpirationTime("10m").sign(new TextEncoder().encode(JWT_SECRET));
}

async function connect(slug: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/p/${slug}/mcp`), {
    fetch: (url, init) => SELF.fetch(String(url), init as RequestInit),
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  const client = new Client({ name: "portico-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
}

/** A guide with sections (levels 2-4, a fenced `##` that is no heading, a partners-only section). */
const SECTIONS = `---\ntitle: Setup guide\n---\nIntro words.\n\n## Install the CLI\n\nRun the installer.\n\n\`\`\`sh\n## not a heading\n\`\`\`\n\n### On Windows\n\nUse PowerShell.\n\n## Rate limits\n\nA hundred a minute.\n\n::: audience partners\n\n## Partner quota ${MARKER}\n\nMore for partners.\n\n:::\n\n## Errors\n\nRetry later.\n`;

beforeAll(async () => {
  const [token, privateToken] = await Promise.all([setUpPortal(SLUG), setUpPortal(PRIVATE)]);
  expect((await uploadContent(token, { ...BUNDLE, "guides/setup.md": SECTIONS })).status).toBe(201);
  expect((await patchAccess(token, ACCESS)).status).toBe(200);
  expect((await patchAccess(privateToken, { ...ACCESS, default: "private" })).status).toBe(200);
}, 120_000); // several portals published: slow on a busy machine

describe("MCP server", () => {
  it("lists the five tools with JSON Schema inputs and negotiates the protocol", async () => {
    const client = await connect(SLUG);
    expect(client.getServerVersion()?.name).toBe("portico-docs");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask_assistant", "get_operation", "get_page", "list_apis", "search_docs"]);
    const search = tools.find((t) => t.name === "search_docs")!;
    expect(search.inputSchema.type).toBe("object");
    expect(search.inputSchema.required).toEqual(["query"]);
    await client.close();
  });

  it("searches, reads a guide as Markdown, lists APIs and reads an operation as JSON, for an anonymous reader", async () => {
    const client = await connect(SLUG);
    const found = await client.callTool({ name: "search_docs", arguments: { query: "public words" } });
    const results = (found.structuredContent as { results: { title: string; url: string; kind: string }[] }).results;
    expect(results.map((r) => r.title)).toContain("Introduction");
    expect(JSON.stringify(found)).not.toContain(MARKER);
    const intro = results.find((r) => r.title === "Introduction")!;
    expect(intro.url).toBe(`${ORIGIN}/p/${SLUG}/guides/intro`);
    const page = await client.callTool({ name: "get_page", arguments: { url: intro.url } });
    expect(text(page)).toContain("# Introduction");
    expect(text(page)).toContain("Public words. Your key is `KEY_DEFAULT`.");
    const apis = await client.callTool({ name: "list_apis", arguments: {} });
    expect((apis.structuredContent as { apis: { api: string; versions: { operations: number }[] }[] }).apis).toEqual([
      expect.objectContaining({ api: "pets", liveVersion: "1.0.0", versions: [{ version: "1.0.0", operations: 1, live: true }] }),
    ]);
    const op = await client.callTool({ name: "get_operation", arguments: { api: "pets", operationId: "listPets" } });
    expect(op.isError).toBeFalsy();
    expect(op.structuredContent).toMatchObject({ api: "pets", operationId: "listPets", method: "GET", path: "/pets", responses: [{ status: "200", description: "ok" }] });
    const opPage = await client.callTool({ name: "get_page", arguments: { url: (op.structuredContent as { url: string }).url } });
    expect(text(opPage)).toContain("`GET /pets`");
    await client.close();
  });

  it("hides the gated guide and API from an anonymous reader exactly as missing ones", async () => {
    const client = await connect(SLUG);
    const gated = await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/guides/partners/deals` } });
    const missing = await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/guides/partners/nothing` } });
    expect(gated.isError).toBe(true);
    expect(text(gated).replace("partners/deals", "X")).toBe(text(missing).replace("partners/nothing", "X"));
    const log = await client.callTool({ name: "get_page", arguments: { url: `${ORIGIN}/p/${SLUG}/changelog#2026-01-01-pub` } });
    expect(text(log)).toContain("Public entry.");
    const allLog = await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/changelog` } });
    expect(text(allLog)).toContain("Public change");
    expect(text(allLog)).not.toContain(MARKER);
    expect((await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/changelog#2026-03-01-deal` } })).isError).toBe(true);
    const op = await client.callTool({ name: "get_operation", arguments: { api: "internal", operationId: "readLedger" } });
    const noApi = await client.callTool({ name: "get_operation", arguments: { api: "nope", operationId: "readLedger" } });
    expect(op.isError).toBe(true);
    expect(text(op).replace("internal", "X")).toBe(text(noApi).replace("nope", "X"));
    const search = await client.callTool({ name: "search_docs", arguments: { query: MARKER } });
    expect((search.structuredContent as { total: number }).total).toBe(0);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([`portico://${SLUG}/apis/pets/openapi.json`, `portico://${SLUG}/llms.txt`]);
    const llms = await client.readResource({ uri: `portico://${SLUG}/llms.txt` });
    expect(JSON.stringify(llms)).not.toContain(MARKER);
    await expect(client.readResource({ uri: `portico://${SLUG}/apis/internal/openapi.json` })).rejects.toThrow(/not-found/);
    await client.close();
  });

  it("shows the gated guide, API and search results to a reader JWT of the audience", async () => {
    const client = await connect(SLUG, await readerJwt());
    const page = await client.callTool({ name: "get_page", arguments: { url: `${ORIGIN}/p/${SLUG}/guides/partners/deals` } });
    expect(page.isError).toBeFalsy();
    expect(text(page)).toContain(`The ${MARKER} terms.`);
    const op = await client.callTool({ name: "get_operation", arguments: { api: "internal", operationId: "readLedger" } });
    expect(op.structuredContent).toMatchObject({ summary: `Ledger ${MARKER}` });
    const search = await client.callTool({ name: "search_docs", arguments: { query: MARKER } });
    expect((search.structuredContent as { total: number }).total).toBeGreaterThan(0);
    const def = await client.readResource({ uri: `portico://${SLUG}/apis/internal/openapi.json` });
    expect(JSON.stringify(def)).toContain(MARKER);
    await client.close();
  });

  it("returns the section a URL's #fragment names, under the page title, and hides a section the reader may not open", async () => {
    const client = await connect(SLUG);
    const install = await client.callTool({ name: "get_page", arguments: { url: `${ORIGIN}/p/${SLUG}/guides/setup#install-the-cli` } });
    expect(install.isError).toBeFalsy();
    expect(install.structuredContent).toMatchObject({ kind: "guide", title: "Setup guide", section: "Install the CLI", url: `${ORIGIN}/p/${SLUG}/guides/setup#install-the-cli` });
    const md = text(install);
    expect(md.startsWith("# Setup guide\n\n## Install the CLI")).toBe(true);
    expect(md).toContain("## not a heading"); // inside the fence: part of the section, not its end
    expect(md).toContain("### On Windows"); // a subsection belongs to it
    expect(md).not.toContain("Intro words.");
    expect(md).not.toContain("Rate limits");
    const limits = text(await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/guides/setup#rate-limits` } }));
    expect(limits).toContain("A hundred a minute.");
    expect(limits).not.toContain("Retry later.");
    expect(limits).not.toContain(MARKER);
    const gated = await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/guides/setup#partner-quota-${MARKER.toLowerCase()}` } });
    const missing = await client.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/guides/setup#no-such-section` } });
    expect(gated.isError).toBe(true);
    expect(text(gated).replace(`partner-quota-${MARKER.toLowerCase()}`, "X")).toBe(text(missing).replace("no-such-section", "X"));
    await client.close();
    const partner = await connect(SLUG, await readerJwt());
    const quota = text(await partner.callTool({ name: "get_page", arguments: { url: `/p/${SLUG}/guides/setup#partner-quota-${MARKER.toLowerCase()}` } }));
    expect(quota).toContain("More for partners.");
    expect(quota).not.toContain("Retry later.");
    await partner.close();
  });

  it("answers ask_assistant with sources the reader may open", async () => {
    const client = await connect(SLUG);
    const res = await client.callTool({ name: "ask_assistant", arguments: { question: "What are the public words?" } });
    expect(res.isError).toBeFalsy();
    const a = res.structuredContent as { answered: boolean; threadId: string; sources: { url: string }[] };
    expect(typeof a.threadId).toBe("string");
    expect(JSON.stringify(res)).not.toContain(MARKER);
    await client.close();
  });

  it("answers 401 with WWW-Authenticate and RFC 9728 metadata for a bad token and for a private portal", async () => {
    const init = (token?: string) => ({ method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    const bad = await SELF.fetch(`${ORIGIN}/p/${SLUG}/mcp`, init("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"));
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/p\/mcp-docs\/mcp", error="invalid_token"/);
    const priv = await SELF.fetch(`${ORIGIN}/p/${PRIVATE}/mcp`, init());
    expect(priv.status).toBe(401);
    const meta = await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource/p/${PRIVATE}/mcp`);
    expect(meta.status).toBe(200);
    expect(await meta.json()).toMatchObject({ resource: `${ORIGIN}/p/${PRIVATE}/mcp`, bearer_methods_supported: ["header"] });
    const client = await connect(PRIVATE, await readerJwt([]));
    const search = await client.callTool({ name: "search_docs", arguments: { query: "public words" } });
    expect((search.structuredContent as { total: number }).total).toBeGreaterThan(0);
    await client.close();
    expect((await SELF.fetch(`${ORIGIN}/p/${SLUG}/mcp`)).status).toBe(405);
    // A client on the previous revision gets its own (negotiated), the current one its own.
    for (const version of ["2025-03-26", "2025-06-18", "2025-11-25"]) {
      const res = await SELF.fetch(`${ORIGIN}/p/${SLUG}/mcp`, { ...init(), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "old", version: "0" } } }) });
      expect(((await res.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
    }
    const huge = await SELF.fetch(`${ORIGIN}/p/${SLUG}/mcp`, { ...init(), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(100_000) } }) });
    expect(huge.status).toBe(413);
    const garbled = await SELF.fetch(`${ORIGIN}/p/${SLUG}/mcp`, { ...init(), body: "{not json" });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("publishes a discovery document and a Connect page with copy-paste configuration", async () => {
    const doc = (await (await SELF.fetch(`${ORIGIN}/p/${SLUG}/.well-known/mcp`)).json()) as Record<string, any>;
    expect(doc).toMatchObject({ transport: { type: "streamable-http", url: `${ORIGIN}/p/${SLUG}/mcp` }, authentication: { required: false }, tools: ["search_docs", "get_page", "list_apis", "get_operation", "ask_assistant"] });
    expect(doc.protocolVersions.supported.length).toBeGreaterThan(1);
    expect(((await (await SELF.fetch(`${ORIGIN}/p/${PRIVATE}/.well-known/mcp`)).json()) as any).authentication.required).toBe(true);
    const page = await SELF.fetch(`${ORIGIN}/p/${SLUG}/connect`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Connect your AI tool");
    expect(html).toContain(`claude mcp add --transport http readers-docs ${ORIGIN}/p/${SLUG}/mcp`);
    expect(html).toMatch(/"mcpServers": \{\n    "readers-docs": \{\n      "url": "http:\/\/portico.test\/p\/mcp-docs\/mcp"/);
  });
});
