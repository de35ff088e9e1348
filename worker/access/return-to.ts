/**
 * @module Where a sign-in may send the reader back to: a path of the same portal, never another origin or portal
 * (open-redirect defence for `?return=` and the session's `returnTo`).
 */

/** Characters that browsers strip or reinterpret in URLs (controls, backslash): refused outright. */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/**
 * The same-portal path `returnTo` names (normalised: dot segments resolved, percent-encoding kept), or the portal
 * home `/p/{slug}/` when it is missing, absolute, protocol-relative (`//evil`), escapes the portal (`/p/x/../y`),
 * or holds control characters or backslashes.
 */
export function safeReturnPath(portalSlug: string, returnTo: string | undefined | null): string {
  const home = `/p/${portalSlug}/`;
  if (!returnTo || returnTo.length > 2048 || !returnTo.startsWith("/") || returnTo.startsWith("//") || UNSAFE.test(returnTo)) return home;
  let url: URL;
  try {
    url = new URL(returnTo, "http://portal.invalid");
  } catch {
    return home;
  }
  if (url.origin !== "http://portal.invalid") return home;
  // Checked after the URL parser resolved `..` and `%2e%2e`, so the prefix test sees the real path.
  if (url.pathname !== `/p/${portalSlug}` && !url.pathname.startsWith(home)) return home;
  if (url.pathname.startsWith(`${home}auth/`)) return home; // never bounce back into a sign-in handler
  return url.pathname + url.search;
}
