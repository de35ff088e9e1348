/**
 * @module The Docs API (issue 31), for embeds and integrations: `GET /p/{portal}/api/v1/search|pages|apis` and
 * `POST /p/{portal}/api/v1/ask`, over the same knowledge adapters as MCP (worker/mcp/knowledge.ts). Callers send
 * `Authorization: Bearer` with a `pk_` public key (browsers; only from the key's listed origins, CORS answered for
 * them alone), an `sk_` secret key (servers; refused from browsers), or a reader JWT signed with the portal's JWT
 * settings (the reader's own audiences). Keys read as an anonymous reader, always: gated content needs a reader
 * token. Rate-limited per key (or reader) and per key and client address (Workers Rate Limiting bindings).
 * Keys: `POST/GET /v1/portal/keys`, `DELETE /v1/portal/keys/{id}` (portal token).
 */
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { bearerToken, isApiKeyToken } from "../access/bearer";
import { clientAddress } from "../access/rate-limit";
import { readAnonymously } from "../access/resolve";
import { loadAssistantPortal } from "../assistant/service";
import { sha256 } from "../content/hash";
import { findKey, listKeys, parseNewKey, publicKeyOrigins, revokeKey, createKey, type DocsApiKey } from "../docs-api/keys";
import type { AppEnv, PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readJsonObject } from "../http/read-json";
import { getPage, listReadableApis, searchDocs } from "../mcp/knowledge";
import { requirePortal } from "../middleware/auth";
import { renderMarkdown } from "../render/markdown";
import { portalBasePath } from "../render/shell/base-path";
import { getDb } from "../store/db";
import { parseAsk, prepareTurn } from "./assistant";
import { machineReader } from "./mcp";
import { searchParams } from "./search";

/** Bytes of an `ask` body, at most. */
const MAX_ASK_BYTES = 16 * 1024;
/** How long a browser may keep a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/** Who is calling, as the middleware found it. */
type Caller = { kind: "key"; key: DocsApiKey } | { kind: "reader" };
const CALLERS = new WeakMap<Request, Caller>();

function problem(status: 401 | 403 | 404 | 429, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

async function portalIdOf(c: Context<AppEnv>): Promise<{ id: number; slug: string; origin: string | null; hostname: string | null } | undefined> {
  return (await c.env.DB.prepare("SELECT id, slug, origin, hostname FROM portals WHERE slug = ?").bind(c.req.param("portal") ?? "").first()) ?? undefined;
}

/** The Docs API base of a portal (absolute), named in 401 challenges. */
function docsApiBase(env: Env, portal: { slug: string; origin: string | null; hostname: string | null }): string {
  return `${publicOrigin(env, portal)}${portalBasePath(portal)}/api/v1`;
}

/** Spends one call of `subject` (a key id or a reader) from `client`; false when over either limit. */
async function spend(env: Env, portalId: number, subject: string, client: string): Promise<boolean> {
  // wrangler.toml `[[ratelimits]]`: 600 a minute per key, 60 per key and client address.
  const [own, pair] = await Promise.all([
    env.DOCS_API_KEY_LIMIT.limit({ key: `${portalId}|${subject}` }),
    env.DOCS_API_CLIENT_LIMIT.limit({ key: `${portalId}|${subject}|${client}` }),
  ]);
  return own.success && pair.success;
}

/** CORS, the caller's key or token, and the rate limits, before any Docs API route. */
const docsApiGate = createMiddleware<AppEnv>(async (c, next) => {
  const portal = await portalIdOf(c);
  if (!portal) return problem(404, "not-found", `no portal "${c.req.param("portal")}"`);
  const origin = c.req.header("origin");
  const db = getDb(c.env.DB);
  if (c.req.method === "OPTIONS") {
    // A preflight carries no key: it is answered for origins some public key lists, and for no other.
    if (!origin || !(await publicKeyOrigins(db, portal.id)).has(origin)) return problem(403, "origin-not-allowed", "this origin is not listed by any public key of the portal", { vary: "Origin" });
    return new Response(null, {
      status: 204,
      headers: {
        "access-control-allow-origin": origin, "access-control-allow-methods": "GET, POST", "access-control-allow-headers": "authorization, content-type",
        "access-control-max-age": String(PREFLIGHT_MAX_AGE), vary: "Origin",
      },
    });
  }
  const token = bearerToken(c.req.header("authorization"));
  const challenge = { "www-authenticate": `Bearer realm="${docsApiBase(c.env, portal)}"` };
  if (!token) return problem(401, "unauthorized", "send Authorization: Bearer <pk_ public key | sk_ secret key | reader JWT>", challenge);
  let subject: string;
  if (isApiKeyToken(token)) {
    const key = await findKey(db, portal.id, token);
    if (!key) return problem(401, "invalid-key", "unknown or revoked key", { ...challenge, vary: "Origin" });
    // The portal's own origin (the iframe mode's frame) may use its public keys: a same-origin GET sends no Origin,
    // so the browser's own Sec-Fetch-Site stands for it.
    const own = origin ? origin === new URL(c.req.url).origin : c.req.header("sec-fetch-site") === "same-origin";
    if (key.kind === "public" && !own && (!origin || !key.origins.includes(origin))) return problem(403, "origin-not-allowed", "this public key is not accepted from this origin", { vary: "Origin" });
    if (key.kind === "secret" && origin) return problem(403, "secret-key-in-browser", "secret keys are for servers: use a public key (pk_) in browsers");
    readAnonymously(c.req.raw);
    CALLERS.set(c.req.raw, { kind: "key", key });
    subject = key.id;
  } else {
    CALLERS.set(c.req.raw, { kind: "reader" });
    subject = `jwt:${(await sha256(token)).slice(0, 32)}`;
  }
  if (!(await spend(c.env, portal.id, subject, clientAddress(c.env, c.req.raw)))) {
    return problem(429, "rate-limited", "too many calls; wait a minute", { "retry-after": "60", ...(origin && CALLERS.get(c.req.raw)?.kind === "key" ? { "access-control-allow-origin": origin, vary: "Origin" } : {}) });
  }
  await next();
  c.res.headers.set("cache-control", "private, no-store");
  c.res.headers.append("vary", "Authorization");
  const caller = CALLERS.get(c.req.raw);
  if (origin && caller?.kind === "key" && caller.key.kind === "public") {
    c.res.headers.set("access-control-allow-origin", origin);
    c.res.headers.append("vary", "Origin");
  }
});

async function knowledgeOf(c: Context<AppEnv>) {
  return machineReader(c, c.req.param("portal") ?? "", (k) => `${k.origin}${k.basePath}/api/v1`);
}

/** The thread owner of a key's (anonymous) questions: the key and the client address, hashed. */
async function ownerOf(c: Context<AppEnv>): Promise<string | undefined> {
  const caller = CALLERS.get(c.req.raw);
  if (caller?.kind !== "key") return undefined;
  return `key:${caller.key.id}:${(await sha256(clientAddress(c.env, c.req.raw) + (c.req.header("cf-connecting-ip") ?? ""))).slice(0, 16)}`;
}

export const docsApiRoutes = new Hono<AppEnv>()
  .use("/p/:portal/api/v1/*", docsApiGate)
  .get("/p/:portal/api/v1/search", async (c) => {
    const p = searchParams(c);
    const k = await knowledgeOf(c);
    if (k instanceof Response) return k;
    return c.json({ query: p.q, ...(await searchDocs(k, p)) });
  })
  .get("/p/:portal/api/v1/pages", async (c) => {
    const path = c.req.query("path") ?? c.req.query("url");
    if (!path) throw new ApiError(400, "invalid-path", "path is required: a page's path or URL (from search results)");
    const k = await knowledgeOf(c);
    if (k instanceof Response) return k;
    const page = await getPage(k, path);
    return c.json({ ...page, html: renderMarkdown(page.markdown, 0) });
  })
  .get("/p/:portal/api/v1/apis", async (c) => {
    const k = await knowledgeOf(c);
    if (k instanceof Response) return k;
    return c.json({ apis: await listReadableApis(k) });
  })
  .post("/p/:portal/api/v1/ask", async (c) => {
    const k = await knowledgeOf(c);
    if (k instanceof Response) return k;
    const input = parseAsk(await readJsonObject(c.req.raw, MAX_ASK_BYTES));
    const portal = await loadAssistantPortal(c.env.DB, k.data.portal.slug);
    if (!portal) throw new ApiError(404, "not-found", "no such portal");
    return c.json(await (await prepareTurn(c, portal, input, await ownerOf(c)))());
  });

export const docsApiKeyRoutes = new Hono<PortalAppEnv>()
  .use("/v1/portal/keys", requirePortal)
  .use("/v1/portal/keys/*", requirePortal)
  .post("/v1/portal/keys", async (c) => {
    const input = parseNewKey(await readJsonObject(c.req.raw, 16 * 1024));
    const created = await createKey(getDb(c.env.DB), c.get("portal").id, input);
    c.header("cache-control", "no-store");
    return c.json(created, 201);
  })
  .get("/v1/portal/keys", async (c) => c.json({ keys: await listKeys(getDb(c.env.DB), c.get("portal").id) }))
  .delete("/v1/portal/keys/:id", async (c) => {
    if (!(await revokeKey(getDb(c.env.DB), c.get("portal").id, c.req.param("id")))) throw new ApiError(404, "not-found", "no such key");
    return c.body(null, 204);
  });
