/**
 * @module The origin absolute URLs are built on (sitemap `<loc>`s, canonical links, `og:url`, feeds, upload
 * answers): the portal's active custom hostname, else its configured origin setting, else the service's
 * `PORTICO_BASE_URL`. Never the request's Host header, which any client can set (`Host: evil.example` must not end
 * up in a page).
 */
import { customHostOrigin } from "../domains/hostname";

/** Used when `PORTICO_BASE_URL` is not configured: `wrangler dev`'s default address. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

/** Scheme + host (+ port) of `url`, or undefined when it is not an absolute http(s) URL. */
function originOf(url: string | undefined | null): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The public origin of a portal, else of the service; no trailing slash. A custom hostname takes the service
 * origin's scheme and port (`https://docs.example.com`; `http://demo.localhost:8787` under npm start).
 */
export function publicOrigin(env: { PORTICO_BASE_URL?: string }, portal?: { origin: string | null; hostname?: string | null }): string {
  const service = originOf(env.PORTICO_BASE_URL) ?? DEFAULT_BASE_URL;
  if (portal?.hostname) return customHostOrigin(service, portal.hostname);
  return originOf(portal?.origin) ?? service;
}
