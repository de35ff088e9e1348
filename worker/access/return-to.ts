/**
 * @module Where a sign-in may send the reader back to: a path of the same portal, never another origin or portal
 * (open-redirect defence for `?return=` and the session's `returnTo`).
 */

import { portalBasePath, type PortalAddress } from "../render/shell/base-path";

/** Characters that browsers strip or reinterpret in URLs (controls, backslash): refused outright. */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/**
 * The same-portal path `returnTo` names (normalised: dot segments resolved, percent-encoding kept), or the portal
 * home (`/p/{slug}/`, `/` on its custom hostname) when it is missing, absolute, protocol-relative (`//evil`),
 * escapes the portal (`/p/x/../y`), or holds control characters or backslashes. Paths are the reader's (external).
 */
export function safeReturnPath(portal: PortalAddress, returnTo: string | undefined | null): string {
  const base = portalBasePath(portal);
  const home = `${base}/`;
  if (!returnTo || returnTo.length > 2048 || !returnTo.startsWith("/") || returnTo.startsWith("//") || UNSAFE.test(returnTo)) return home;
  let url: URL;
  try {
    url = new URL(returnTo, "http://portal.invalid");
  } catch {
    return home;
  }
  if (url.origin !== "http://portal.invalid") return home;
  // Checked after the URL parser resolved `..` and `%2e%2e`, so the prefix test sees the real path.
  if (url.pathname !== base && !url.pathname.startsWith(home)) return home;
  if (url.pathname.startsWith(`${home}auth/`)) return home; // never bounce back into a sign-in handler
  return url.pathname + url.search;
}
