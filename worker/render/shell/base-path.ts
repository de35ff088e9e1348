/** @module Where a portal's reader pages live: under `/p/{slug}` on the service host, or at the root of its custom hostname. */

/** What the base path depends on: the slug, and the active custom hostname (`portals.hostname`) when there is one. */
export interface PortalAddress {
  slug: string;
  /** The active custom hostname; null = none. Required, so that no caller forgets it and builds `/p/` URLs for a custom host. */
  hostname: string | null;
}

/**
 * The prefix of every reader URL of `portal`, without a trailing slash: "" when it has an active custom hostname
 * (`https://docs.example.com/guides/intro`), else `/p/{slug}`. Every route, cookie path and the shell build reader
 * URLs on it. It depends on the portal, never on the request: on the service host a portal with an active hostname
 * only redirects (worker/domains/route-host.ts), so its pages are always rendered for that hostname.
 */
export function portalBasePath(portal: PortalAddress): string {
  return portal.hostname ? "" : `/p/${encodeURIComponent(portal.slug)}`;
}

/** The Worker-internal prefix of the portal's routes, whatever the Host: the Host router adds it on custom hostnames. */
export function internalBasePath(slug: string): string {
  return `/p/${encodeURIComponent(slug)}`;
}

/**
 * The URL path a reader sees for an internal route path (`/p/acme/guides/x` → `/guides/x` on a custom hostname);
 * `internalPath` must be under the portal's internal prefix.
 */
export function readerPath(portal: PortalAddress, internalPath: string): string {
  const inside = internalPath.slice(internalBasePath(portal.slug).length) || "/";
  return `${portalBasePath(portal)}${inside}`;
}

/** The cookie Path of everything of the portal (`/p/{slug}/`, or `/` on its custom hostname; host-only cookies). */
export function portalCookiePath(portal: PortalAddress, below = ""): string {
  return `${portalBasePath(portal)}/${below}`;
}
