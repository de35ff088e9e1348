/** @module Reader-page helpers shared by the fuzz tests. */

/** Operation page links found in a version index page (hrefs one segment below `versionPath`). */
export function operationLinks(html: string, versionPath: string): string[] {
  const links = new Set<string>();
  for (const m of html.matchAll(/href="([^"#?]+)"/g)) {
    const href = m[1].replace(/&amp;/g, "&");
    if (href.startsWith(versionPath) && href.length > versionPath.length && !href.slice(versionPath.length).includes("/")) links.add(href);
  }
  return [...links];
}
