/**
 * @module The security headers of every response the Worker makes, in one place: a strict Content-Security-Policy
 * on HTML (scripts and styles from our own origin only, nothing inline but the brand's design tokens, admitted by
 * their SHA-256), `nosniff` and a referrer policy on
 * everything, HSTS outside localhost. Static assets never reach the Worker: client/static/_headers gives them
 * the same `nosniff` and referrer policy.
 * @see https://www.w3.org/TR/CSP3/ (directives), RFC 6797 (HSTS)
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import type { PagePolicy } from "./page-policy";

/** The policy of a page outside any portal (404s, unknown portals): nothing framed, no outside images. */
export const DEFAULT_PAGE_POLICY: PagePolicy = { frameAncestors: [], externalImages: false };

/**
 * The Content-Security-Policy of an HTML page. `default-src 'none'` with one allowance per kind of thing pages
 * load: our scripts (classic and module) and stylesheets, images from ourselves and `data:` (the empty favicon),
 * fetches to ourselves (the editor's API calls).
 */
export function contentSecurityPolicy(policy: PagePolicy): string {
  const ancestors = policy.editor || policy.frameAncestors.length === 0 ? ["'none'"] : [...policy.frameAncestors];
  const directives: [string, string[]][] = [
    ["default-src", ["'none'"]],
    ["script-src", ["'self'"]],
    ["style-src", ["'self'", ...(policy.styleNonce ? [`'nonce-${policy.styleNonce}'`] : []), ...(policy.styleHashes ?? []).map((h) => `'sha256-${h}'`)]],
    ["img-src", ["'self'", "data:", ...(policy.externalImages && !policy.editor ? ["https:"] : [])]],
    ["font-src", ["'self'"]],
    ["connect-src", ["'self'"]],
    ...(policy.editor ? ([["worker-src", ["'self'"]]] as [string, string[]][]) : []),
    ["form-action", ["'self'", ...(policy.formActions ?? [])]],
    ["frame-ancestors", ancestors],
    ["base-uri", ["'none'"]],
    ["object-src", ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(" ")}`).join("; ");
}

/** Non-HTML answers (JSON, raw definitions, the sitemap) load nothing and are never framed. */
export const NON_HTML_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** HSTS: one year, subdomains included. Not sent to localhost, where a browser would pin plain-http dev servers. */
export const HSTS = "max-age=31536000; includeSubDomains";

function isLocalHost(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]";
}

/** The reader-page policy of a portal with these settings. */
export function portalPagePolicy(settings: { embedOrigins: readonly string[]; externalImages: boolean }): PagePolicy {
  return { frameAncestors: settings.embedOrigins, externalImages: settings.externalImages };
}

/** Pages call this once they know their portal, so that the response's policy follows the portal's settings. */
export function usePagePolicy(c: Context<AppEnv>, policy: PagePolicy): void {
  c.set("pagePolicy", policy);
}

/**
 * Admits one `<style>` element of the page by its digest (CSP3 hash source): `css` must be exactly the element's
 * text. Only server-built text from validated values goes here (the brand's tokens, content/brand.ts
 * themeStylesheet), never a writer's stylesheet, so the policy stays "nothing inline but what we wrote".
 */
export function allowInlineStyle(c: Context<AppEnv>, css: string): void {
  const styles = c.get("inlineStyles") ?? [];
  if (!styles.includes(css)) c.set("inlineStyles", [...styles, css]);
}

/** Base64 SHA-256 of UTF-8 text, as CSP hash sources spell it. */
async function cspDigest(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/** The headers a response with `contentType` gets (the `pagePolicy` applies to HTML only). */
export function securityHeaders(contentType: string, policy: PagePolicy, requestUrl: string): Record<string, string> {
  const html = /^text\/html\b/i.test(contentType);
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": policy.referrerPolicy ?? (policy.editor ? "same-origin" : "strict-origin-when-cross-origin"),
    "content-security-policy": html ? contentSecurityPolicy(policy) : (policy.bodyCsp ?? NON_HTML_POLICY),
  };
  // Older browsers ignore frame-ancestors; X-Frame-Options can only say DENY (it has no list of origins).
  if (!html || policy.editor || policy.frameAncestors.length === 0) headers["x-frame-options"] = "DENY";
  if (!isLocalHost(requestUrl)) headers["strict-transport-security"] = HSTS;
  return headers;
}

/**
 * Middleware (first in the app): sets the headers on whatever answer comes back, routes, errors and 404s
 * alike. A route's own values win for the same header only where it set them deliberately (none do today).
 */
export const securityHeadersMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const policy = c.get("pagePolicy") ?? DEFAULT_PAGE_POLICY;
  const styles = c.get("inlineStyles");
  const styleHashes = styles?.length ? await Promise.all(styles.map(cspDigest)) : undefined;
  const headers = securityHeaders(c.res.headers.get("content-type") ?? "", styleHashes ? { ...policy, styleHashes } : policy, c.req.url);
  let res = c.res;
  try {
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  } catch {
    // Responses passed through from a fetch have immutable headers: copy once, then set.
    res = new Response(res.body, res);
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
    c.res = res;
  }
});
