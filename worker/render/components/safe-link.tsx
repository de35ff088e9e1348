/** @module Links to URLs taken from a definition: only http(s) and mailto become links; anything else stays text. */

/** The URL when it is safe to put in `href` (http, https, mailto, or a same-site path), else undefined. */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  const u = url.trim();
  if (/^(https?:\/\/|mailto:)/i.test(u)) return u;
  if (u.startsWith("/") && !u.startsWith("//")) return u;
  return undefined;
}

/** An external link, or plain code text when the URL is not safe. */
export function SafeLink({ url, children }: { url: unknown; children?: preact.ComponentChildren }) {
  const href = safeHref(url);
  const label = children ?? String(url ?? "");
  return href ? <a href={href} rel="nofollow noopener">{label}</a> : <code>{label}</code>;
}
