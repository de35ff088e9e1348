/**
 * @module The portal's MCP server (Model Context Protocol: the SDK's latest revision, 2025-11-25, and the earlier ones it still
 * negotiates): one `McpServer` of the official TypeScript SDK per request (stateless Streamable HTTP, no session),
 * its tools and resources thin adapters over worker/mcp/knowledge.ts for the request's reader. Arguments are checked
 * with the SDK's Workers-safe validator (@cfworker/json-schema: no code generation, since workerd forbids eval);
 * input schemas are zod shapes the SDK publishes as JSON Schema.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ApiError } from "../http/errors";
import { MAX_LIMIT, MAX_QUERY_CHARS } from "../routes/search";
import { definitionUri, getOperation, getPage, listReadableApis, llmsTxtFor, rawDefinition, readableSiteApis, searchDocs, type Knowledge } from "./knowledge";

// zod's JIT probes `new Function`; workerd refuses it, so zod is told not to try.
z.config({ jitless: true });

/** The server's name and version as `initialize` answers them. */
export const MCP_SERVER_INFO = { name: "portico-docs", version: "1.0.0" } as const;

/** The tools, by name (fixed: clients and docs/mcp.md name them), with what the "Connect" page says of each. */
export const MCP_TOOLS = [
  { name: "search_docs", description: "Search guides, API operations, changelog and glossary: {query, limit?, kind?}." },
  { name: "get_page", description: "A page as Markdown (guide, walkthrough, operation with its schemas and a sample): {url}." },
  { name: "list_apis", description: "The APIs with their versions and operation counts." },
  { name: "get_operation", description: "One operation as structured JSON: {api, operationId, version?}." },
  { name: "ask_assistant", description: "The docs assistant's answer with its sources: {question, threadId?}." },
] as const;

/** Asks the assistant one question for the reader (the route supplies limits, the plan seam and the thread owner). */
export type AskAssistant = (input: { question: string; threadId?: string }) => Promise<{ answered: boolean; answer: string; threadId: string; sources: { title: string; url: string }[] }>;

const KINDS = ["operation", "guide", "step", "changelog", "glossary"] as const;

function json(value: object, text?: string): CallToolResult {
  // Compact: the same JSON travels twice (text for older clients, structuredContent), so no indentation.
  return { content: [{ type: "text", text: text ?? JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

/** An ApiError as a tool error the model can read (a refusal is not a protocol error). */
async function tool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ApiError) return { isError: true, content: [{ type: "text", text: `${e.code}: ${e.message}` }] };
    throw e;
  }
}

/** The MCP server for one request's reader of one portal. */
export function portalMcpServer(k: Knowledge, ask: AskAssistant): McpServer {
  const name = k.data.portal.name;
  const server = new McpServer(
    { ...MCP_SERVER_INFO, title: `${name} docs` },
    {
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      instructions: `Documentation of ${name}: search it with search_docs, read a result with get_page, list its APIs with list_apis and read one operation as JSON with get_operation.`,
    },
  );
  server.registerTool("search_docs", {
    title: "Search the docs",
    description: `Searches ${name}'s guides, API operations, changelog and glossary. Returns ranked results with title, url, kind and snippet; operations also carry method, path, api and operationId (for get_operation).`,
    inputSchema: {
      query: z.string().min(1).max(MAX_QUERY_CHARS).describe("What to look for, in words or an identifier"),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Results to return (default 10, at most ${MAX_LIMIT})`),
      kind: z.enum(KINDS).optional().describe("Only results of this kind"),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ query, limit, kind }) => tool(async () => {
    const found = await searchDocs(k, { q: query.normalize("NFC"), limit: limit ?? 10, ...(kind ? { kind } : {}) });
    const results = found.results.map((r) => ({
      title: r.title, url: r.url, kind: r.kind, snippet: r.snippet.replace(/<\/?mark>/g, ""), ...(r.section ? { section: r.section } : {}),
      ...(r.kind === "operation" ? { method: r.method, path: r.path, api: r.api, operationId: r.operationId } : {}),
    }));
    return json({ query, total: found.total, results });
  }));
  server.registerTool("get_page", {
    title: "Read a page",
    description: "Returns a page of the docs as Markdown: a guide, a code walkthrough, an API reference's operation list, or an operation with its parameters, request and response schemas and one sample. Pass a url from search_docs; a url with #section returns that section of a guide under the page's title.",
    inputSchema: { url: z.string().min(1).max(2048).describe("The page's URL (absolute, or a path on the portal)") },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ url }) => tool(async () => {
    const page = await getPage(k, url);
    return json({ kind: page.kind, title: page.title, ...(page.section ? { section: page.section } : {}), url: page.url, markdown: page.markdown }, page.markdown);
  }));
  server.registerTool("list_apis", {
    title: "List the APIs",
    description: `Lists ${name}'s APIs with their versions and operation counts.`,
    inputSchema: {},
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, () => tool(async () => json({ apis: await listReadableApis(k) })));
  server.registerTool("get_operation", {
    title: "Read an operation",
    description: "Returns one API operation as structured JSON: parameters, request body, responses, security and servers, schemas expanded (within the page budget), one sample.",
    inputSchema: {
      api: z.string().min(1).max(200).describe("The API's slug (list_apis `api`, or search_docs `api`)"),
      operationId: z.string().min(1).max(500).describe("The operation's operationId (or its URL slug)"),
      version: z.string().min(1).max(200).optional().describe("A published version label; the live one by default"),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ api, operationId, version }) => tool(async () => {
    const o = await getOperation(k, api, operationId, version);
    return json(o);
  }));
  server.registerTool("ask_assistant", {
    title: "Ask the docs assistant",
    description: `Asks ${name}'s docs assistant a question; the answer cites its sources. Pass threadId to follow up.`,
    inputSchema: {
      question: z.string().min(1).max(2000).describe("The question"),
      threadId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional().describe("A previous answer's threadId, to follow up"),
    },
    annotations: { readOnlyHint: false, openWorldHint: false },
  }, ({ question, threadId }) => tool(async () => {
    const a = await ask({ question, ...(threadId ? { threadId } : {}) });
    const sources = a.sources.map((s, i) => `[${i + 1}] ${s.title}: ${s.url}`).join("\n");
    return json({ answered: a.answered, answer: a.answer, threadId: a.threadId, sources: a.sources }, sources ? `${a.answer}\n\nSources:\n${sources}` : a.answer);
  }));
  const slug = k.data.portal.slug;
  if (k.site) {
    server.registerResource("llms.txt", `portico://${slug}/llms.txt`, { title: `${name}: llms.txt`, description: "The docs' index for language models (llmstxt.org)", mimeType: "text/markdown" }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/markdown", text: llmsTxtFor(k) }],
    }));
  }
  server.registerResource("definition", new ResourceTemplate(`portico://${slug}/apis/{api}/openapi.json`, {
    list: async () => ({ resources: readableSiteApis(k).map((a) => ({ uri: definitionUri(slug, a.slug), name: `${a.title} definition`, mimeType: "application/json" })) }),
  }), { title: "API definition", description: "An API's OpenAPI definition as published (live version)" }, async (uri, vars) => {
    const api = decodeURIComponent(String(vars.api));
    try {
      const raw = await rawDefinition(k, api);
      return { contents: [{ uri: uri.href, mimeType: raw.mediaType, text: raw.text }] };
    } catch (e) {
      if (e instanceof ApiError) throw new Error(`${e.code}: ${e.message}`);
      throw e;
    }
  });
  return server;
}
