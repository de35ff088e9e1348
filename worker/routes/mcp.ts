/**
 * @module The portal's MCP endpoint (issue 31): `POST /p/{portal}/mcp`, Streamable HTTP without sessions (every
 * request stands alone: GET and DELETE answer 405), served by the official SDK's web-standard transport. The reader
 * is the request's (readerState: an OAuth access token of the portal's authorization server, access/oauth.ts, or a
 * bearer reader JWT signed with the portal's JWT settings, else anonymous); a private portal, or a bearer token that
 * does not verify, answers 401 with `WWW-Authenticate` naming the RFC 9728 protected-resource metadata
 * (`/.well-known/oauth-protected-resource/p/{portal}/mcp`, on a custom hostname
 * `/.well-known/oauth-protected-resource/mcp`), which names the authorization server. `POST /p/{portal}/mcp/signed-in`
 * is the same server for a client that should sign its reader in on a portal whose default is public: it asks every
 * signed-out caller for a token, so the client runs the OAuth flow and sees the gated sections.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { readBodyLimited } from "../http/read-body";
import { publicOrigin } from "../http/public-origin";
import { sha256 } from "../content/hash";
import { loadAssistantPortal } from "../assistant/service";
import { openKnowledge, type Knowledge } from "../mcp/knowledge";
import { MCP_SERVER_INFO, MCP_TOOLS, portalMcpServer, type AskAssistant } from "../mcp/server";
import { renderConnectPage } from "../render/connect-page";
import { loadChrome } from "./shell-chrome";
import { loadAccess } from "../store/readers";
import { acceptAccessTokens } from "../access/resolve";
import { authorizationServer, mcpResource, protectedResourceMetadataUrl, requestResource, type McpEndpoint } from "../access/oauth";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { portalBasePath } from "../render/shell/base-path";
import { prepareTurn } from "./assistant";
import { loadContentSite } from "../store/content-site";

/** Largest MCP request body (bytes): a tool call is a few hundred bytes; a batch of them stays far below. */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

export { mcpResource, protectedResourceMetadataUrl };

/** 401 with the RFC 6750 §3 / RFC 9728 §5.1 challenge. */
export function unauthorized(resource: string, error: "invalid_token" | undefined, description: string): Response {
  const params = [`resource_metadata="${protectedResourceMetadataUrl(resource)}"`, ...(error ? [`error="${error}"`] : []), `error_description="${description.replace(/["\\]/g, "")}"`];
  return new Response(JSON.stringify({ error: { code: error ?? "unauthorized", message: description } }), {
    status: 401,
    headers: { "content-type": "application/json", "www-authenticate": `Bearer ${params.join(", ")}`, "cache-control": "no-store" },
  });
}

/** The thread owner of a signed-out machine caller: its address, hashed (it keeps no cookie). */
async function anonymousOwner(c: Context<AppEnv>): Promise<string> {
  return `machine:${(await sha256(`${c.req.header("cf-connecting-ip") ?? "local"}`)).slice(0, 22)}`;
}

/** The assistant for MCP's `ask_assistant`: the assistant route's limits, plan seam and turn, for this reader. */
export function askFor(c: Context<AppEnv>, k: Knowledge): AskAssistant {
  return async (input) => {
    const portal = await loadAssistantPortal(c.env.DB, k.data.portal.slug);
    if (!portal) throw new ApiError(404, "not-found", "no such portal");
    const turn = await (await prepareTurn(c, portal, input, await anonymousOwner(c)))();
    return { answered: turn.answered, answer: turn.answer, threadId: turn.threadId, sources: turn.sources.map((s) => ({ title: s.title, url: s.url })) };
  };
}

/**
 * The reader's knowledge of the portal, or the 401 to answer: a bearer token that does not verify, or a signed-out
 * caller of a private portal.
 */
export async function machineReader(c: Context<AppEnv>, slug: string, resource: (k: Knowledge) => string, signInRequired = false): Promise<Knowledge | Response> {
  const k = await openKnowledge(c, slug);
  if (k.state.bearer.kind === "invalid") return unauthorized(resource(k), "invalid_token", `the bearer token was refused: ${k.state.bearer.reason}`);
  if (!k.state.identity && (tokenRequired(k.state.access.policy) || (signInRequired && k.state.access.policy.methods.length > 0))) {
    const how = authorizationServer(c.env, k.data.portal) ? "sign in through the portal's authorization server (OAuth), or send" : "send";
    return unauthorized(resource(k), undefined, `${signInRequired ? "this endpoint reads as a signed-in reader" : "this portal is private"}: ${how} a reader token (Authorization: Bearer <JWT signed with the portal's JWT settings>)`);
  }
  return k;
}

async function metadata(c: Context<AppEnv>, slug: string, endpoint: McpEndpoint = "mcp"): Promise<Response> {
  const data = await loadContentSite(c.env, slug);
  if (!data) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  const resource = requestResource(c.env, data.portal, c.req.url, endpoint);
  const as = authorizationServer(c.env, data.portal);
  const access = await loadAccess(c.env.DB, data.portal.id);
  // RFC 9728 §2. The authorization server signs readers in (a portal with ways in); reader JWTs minted by the
  // customer's own server are accepted beside its tokens.
  return c.json({
    resource,
    resource_name: `${data.portal.name} docs (MCP)`,
    bearer_methods_supported: ["header"],
    authorization_servers: as && access.policy.methods.length > 0 && as.addresses.resources.includes(resource) ? [as.addresses.issuer] : [],
    resource_documentation: `${publicOrigin(c.env, data.portal)}${portalBasePath(data.portal)}/connect`,
  }, 200, { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" });
}

/** Whether signed-out callers are refused (a private portal). */
function tokenRequired(policy: { default: string; methods: readonly string[] }): boolean {
  return policy.default === "private" && policy.methods.length > 0;
}

/**
 * The MCP discovery document (`/.well-known/mcp` on a portal's own hostname, `/p/{portal}/.well-known/mcp` on the
 * service host): where the server is, its transport and protocol revisions, whether it needs a token, its tools.
 */
async function discovery(c: Context<AppEnv>, slug: string): Promise<Response> {
  const data = await loadContentSite(c.env, slug);
  if (!data) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  const access = await loadAccess(c.env.DB, data.portal.id);
  const resource = mcpResource(c.env, data.portal);
  const site = `${publicOrigin(c.env, data.portal)}${portalBasePath(data.portal)}`;
  const as = access.policy.methods.length > 0 ? authorizationServer(c.env, data.portal) : undefined;
  return c.json({
    name: MCP_SERVER_INFO.name, title: `${data.portal.name} docs`, version: MCP_SERVER_INFO.version,
    description: `Documentation of ${data.portal.name}: search, pages, API operations and the docs assistant.`,
    transport: { type: "streamable-http", url: resource, stateless: true },
    protocolVersions: { latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS },
    authentication: {
      required: tokenRequired(access.policy), schemes: ["bearer"], protectedResourceMetadata: protectedResourceMetadataUrl(resource),
      ...(as ? { authorizationServer: as.addresses.issuer, signedInUrl: `${as.addresses.resources[0]}/signed-in` } : {}),
    },
    tools: MCP_TOOLS.map((t) => t.name),
    resources: [`portico://${slug}/llms.txt`, `portico://${slug}/apis/{api}/openapi.json`],
    documentation: `${site}/connect`,
    docsApi: `${site}/api/v1`,
    llmsTxt: `${site}/llms.txt`,
  }, 200, { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" });
}

const notAllowed = (c: Context<AppEnv>) => c.json({ jsonrpc: "2.0", error: { code: -32000, message: "this MCP server is stateless: POST each request" }, id: null }, 405, { allow: "POST" });

/** `POST /mcp` (and `/mcp/signed-in`, which asks every signed-out caller to sign in). */
function serveMcp(endpoint: McpEndpoint) {
  const signInRequired = endpoint === "mcp/signed-in";
  return async (c: Context<AppEnv>) => {
    // Read within the cap first (a chunked body declares no length); the transport parses these bytes.
    const body = await readBodyLimited(c.req.raw, MAX_MCP_BODY_BYTES);
    const resourceOf = (portal: Parameters<typeof requestResource>[1]) => requestResource(c.env, portal, c.req.url, endpoint);
    acceptAccessTokens(c.req.raw, resourceOf);
    const found = await machineReader(c, c.req.param("portal") ?? "", (k) => resourceOf(k.data.portal), signInRequired);
    if (found instanceof Response) return found;
    const server = portalMcpServer(found, askFor(c, found));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const res = await transport.handleRequest(new Request(c.req.raw.url, { method: "POST", headers: c.req.raw.headers, body }));
    const out = new Response(res.body, res);
    out.headers.set("cache-control", "private, no-store");
    out.headers.set("vary", "Authorization");
    return out;
  };
}

export const mcpRoutes = new Hono<AppEnv>()
  .post("/p/:portal/mcp", serveMcp("mcp"))
  .post("/p/:portal/mcp/signed-in", serveMcp("mcp/signed-in"))
  .get("/p/:portal/.well-known/mcp", (c) => discovery(c, c.req.param("portal")))
  .get("/p/:portal/connect", async (c) => {
    const slug = c.req.param("portal");
    const data = await loadContentSite(c.env, slug);
    if (!data) throw new ApiError(404, "not-found", `no portal "${slug}"`);
    const [access, chrome] = await Promise.all([loadAccess(c.env.DB, data.portal.id), loadChrome(c, slug)]);
    const site = `${publicOrigin(c.env, data.portal)}${portalBasePath(data.portal)}`;
    const oauth = access.policy.methods.length > 0 ? authorizationServer(c.env, data.portal) : undefined;
    return c.html(renderConnectPage({
      basePath: portalBasePath(data.portal), portalName: data.portal.name, mcpUrl: mcpResource(c.env, data.portal), embedUrl: `${site}/embed.js`,
      docsApiUrl: `${site}/api/v1`, tokenRequired: tokenRequired(access.policy), tools: [...MCP_TOOLS], ...(chrome ? { chrome: chrome.chrome } : {}),
      ...(oauth ? { signInUrl: `${oauth.addresses.resources[0]}${tokenRequired(access.policy) ? "" : "/signed-in"}` } : {}),
    }));
  })
  .get("/p/:portal/mcp", notAllowed)
  .delete("/p/:portal/mcp", notAllowed)
  .get("/p/:portal/mcp/signed-in", notAllowed)
  .delete("/p/:portal/mcp/signed-in", notAllowed)
  .get("/.well-known/oauth-protected-resource/p/:portal/mcp", (c) => metadata(c, c.req.param("portal")))
  // On a custom hostname the Host router puts `/p/{portal}` first (domains/route-host.ts).
  .get("/p/:portal/.well-known/oauth-protected-resource/mcp", (c) => metadata(c, c.req.param("portal")))
  .get("/.well-known/oauth-protected-resource/p/:portal/mcp/signed-in", (c) => metadata(c, c.req.param("portal"), "mcp/signed-in"))
  .get("/p/:portal/.well-known/oauth-protected-resource/mcp/signed-in", (c) => metadata(c, c.req.param("portal"), "mcp/signed-in"));
