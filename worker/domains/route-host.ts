/**
 * @module The portal chosen by the Host before any route runs (`resolvePortal`), and the entry's fetch that acts on
 * it: on a portal's active custom hostname a request is served from that portal's `/p/{slug}` routes with the prefix
 * added inside the Worker (the reader never sees it); on the service host, a portal's reader URLs redirect to its
 * custom hostname once that is active; any other Host gets a plain 404 that names nothing.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../env";
import { DEFAULT_BASE_URL } from "../http/public-origin";
import { DEFAULT_PAGE_POLICY, securityHeaders } from "../http/security-headers";
import { internalBasePath } from "../render/shell/base-path";
import { canonicalHostname, customHostOrigin, serviceHostname } from "./hostname";
import { BoundedCache } from "../lib/bounded-cache";

/** Which site a request is for. */
export type HostRoute =
  /** The service itself: `/v1` API, `/p/{slug}/` reader pages of portals without an active custom hostname. */
  | { kind: "service" }
  /** A portal's active custom hostname. */
  | { kind: "portal"; slug: string; hostname: string }
  /** Nothing Portico serves. */
  | { kind: "unknown" };

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The site of `request`, from its Host (the URL's host in Workers) alone. The service host is `PORTICO_BASE_URL`'s;
 * locally (`PORTICO_ENVIRONMENT` "local") loopback names count as it too. Other names are looked up among active
 * custom hostnames (`portals.hostname`, one indexed D1 read).
 */
export async function resolvePortal(request: Request, env: Pick<Env, "DB" | "PORTICO_BASE_URL" | "PORTICO_ENVIRONMENT">): Promise<HostRoute> {
  const raw = new URL(request.url).hostname.toLowerCase();
  const service = serviceHostname(env.PORTICO_BASE_URL || DEFAULT_BASE_URL);
  if (raw === service || (env.PORTICO_ENVIRONMENT === "local" && LOOPBACK.has(raw))) return { kind: "service" };
  const hostname = canonicalHostname(raw);
  if (hostname === undefined) return { kind: "unknown" };
  if (hostname === service) return { kind: "service" };
  const row = await env.DB.prepare("SELECT slug FROM portals WHERE hostname = ?").bind(hostname).first<{ slug: string }>();
  return row ? { kind: "portal", slug: row.slug, hostname } : { kind: "unknown" };
}

/**
 * Portals this isolate found without an active custom hostname, by slug: when (ms) and under which generation of
 * {@link hostnamesChanged}. For 30 s their service-host pages skip the redirect check, a D1 round trip that every
 * reader page paid before its own reads. A hostname that becomes active redirects at once in the isolate that
 * activated it and within 30 s in the others (their pages are served on the service host meanwhile, as before the
 * activation); a released hostname is never kept, so release takes effect at once everywhere.
 */
const WITHOUT_HOSTNAME = new BoundedCache<string, { at: number; generation: number }>({ maxEntries: 4096 });
const WITHOUT_HOSTNAME_MS = 30_000;
let generation = 0;

function knownWithoutHostname(slug: string): boolean {
  const kept = WITHOUT_HOSTNAME.get(slug);
  return kept !== undefined && kept.generation === generation && Date.now() - kept.at < WITHOUT_HOSTNAME_MS;
}

function keptWithoutHostname(slug: string): void {
  WITHOUT_HOSTNAME.set(slug, { at: Date.now(), generation });
}

/** Called after any write of `portals.hostname` (domains/registry.ts): this isolate checks every portal again. */
export function hostnamesChanged(): void {
  generation++;
}

/** Paths on a custom hostname that stay the service's (the API the editor and admin pages call, the health check). */
function isServicePath(pathname: string): boolean {
  return pathname.startsWith("/v1/") || pathname === "/healthz";
}

/**
 * The team's pages under a portal (the API editor, the changelog review): they stay on the service host, where the
 * portal token is entered and their links are built, and are neither redirected nor served on a custom hostname.
 */
function isTeamPath(rest: string): boolean {
  return /^\/(?:editor|admin)(?:\/|$)/.test(rest);
}

/**
 * A portal's machine endpoints (MCP and its OAuth token endpoints, the Docs API, the embed script, discovery): no cookies, no pages, so they answer
 * on the service host too, not redirected to the custom hostname (clients that cannot follow a redirect with the
 * body, or cannot resolve a `.localhost` name, keep working; issue 31).
 */
function isMachinePath(rest: string): boolean {
  // The OAuth token and registration endpoints too (access/oauth.ts); the authorization page is a reader page.
  return /^\/(?:mcp|embed\.js|api\/v1\/|\.well-known\/|oauth\/(?:token|register)$)/.test(rest);
}

/** The answer to a Host Portico does not serve: the same bytes whatever was asked, so it names nothing. */
export function unknownHostResponse(request: Request): Response {
  const html = '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1></main></body></html>\n';
  const contentType = "text/html; charset=utf-8";
  return new Response(request.method === "HEAD" ? null : html, {
    status: 404,
    headers: { "content-type": contentType, "cache-control": "no-store", ...securityHeaders(contentType, DEFAULT_PAGE_POLICY, request.url) },
  });
}

/** `/p/{slug}` and `/p/{slug}/...`: the slug (decoded) and the rest of the path ("/" at least). */
function portalPrefix(pathname: string): { slug: string; rest: string } | undefined {
  const match = /^\/p\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match) return undefined;
  try {
    return { slug: decodeURIComponent(match[1]!), rest: match[2] ?? "/" };
  } catch {
    return undefined;
  }
}

/**
 * The Worker's fetch: {@link resolvePortal}, then the app. On the service host, `/p/{slug}/…` of a portal with an
 * active custom hostname answers 301 (GET, HEAD) or 308 (other methods, which keep their body) to the same path on
 * that host, so nothing of the portal (pages, cookies) is served from two origins. /v1 and the team's pages (editor,
 * changelog review) are never redirected.
 */
export function hostRoutedFetch(app: Hono<AppEnv>): (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response> {
  return async (request, env, ctx) => {
    const route = await resolvePortal(request, env);
    if (route.kind === "unknown") return unknownHostResponse(request);
    const url = new URL(request.url);
    if (route.kind === "portal") {
      if (isServicePath(url.pathname)) return app.fetch(request, env, ctx);
      if (isTeamPath(url.pathname)) return unknownHostResponse(request);
      url.pathname = `${internalBasePath(route.slug)}${url.pathname}`;
      return app.fetch(new Request(url, request), env, ctx);
    }
    const prefixed = portalPrefix(url.pathname);
    if (prefixed && !isTeamPath(prefixed.rest) && !isMachinePath(prefixed.rest) && !knownWithoutHostname(prefixed.slug)) {
      const row = await env.DB.prepare("SELECT hostname FROM portals WHERE slug = ?").bind(prefixed.slug).first<{ hostname: string | null }>();
      if (!row?.hostname) keptWithoutHostname(prefixed.slug);
      else {
        const location = `${customHostOrigin(env.PORTICO_BASE_URL || DEFAULT_BASE_URL, row.hostname)}${prefixed.rest}${url.search}`;
        const status = request.method === "GET" || request.method === "HEAD" ? 301 : 308;
        return new Response(null, { status, headers: { location, ...securityHeaders("", DEFAULT_PAGE_POLICY, request.url) } });
      }
    }
    return app.fetch(request, env, ctx);
  };
}
