/** @module Where a portal's reader pages live: the one function a custom domain (issue 33, later part) changes. */

/**
 * The prefix of every reader URL of portal `slug`, without a trailing slash: `/p/{slug}` while portals are told
 * apart by path. Every route and the shell build reader URLs on it, so serving a portal at the root of its own
 * host changes this function alone.
 */
export function portalBasePath(slug: string): string {
  return `/p/${encodeURIComponent(slug)}`;
}
