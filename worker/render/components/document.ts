/** @module The HTML document around a page: head (title, description, canonical, Open Graph), theme bootstrap
 * (a blocking same-origin script: the CSP in worker/http/security-headers.ts allows no inline script or style). */
import { ASSETS } from "../urls";

/** What goes into `<head>`. */
export interface HeadInfo {
  title: string;
  description?: string;
  canonicalUrl?: string;
  /** Open Graph tags (operation pages). */
  og?: { title: string; description?: string; siteName: string; type?: string };
  /** Pages with legacy-anchor mapping (index, single page). */
  anchors?: boolean;
  /** `<html lang>`; English when absent. */
  locale?: string;
  /** Further `<head>` elements, already escaped (shell/document.ts builds them). */
  extra?: string[];
  /** The portal's favicon URL (brand `favicon`). */
  favicon?: string;
  /** `<html data-theme>` before the reader picks one (brand `themeDefault`); theme-init.js applies a stored choice over it. */
  theme?: "light" | "dark";
}


import { escapeHtml as esc } from "../../lib/html-escape";

/** Escapes text for HTML text and attribute positions (the shared escaper, under the name this layer's callers use). */
export { esc };

/** Characters of a description read for its summary: markup shrinks, but never by more than this factor. */
const SUMMARY_SOURCE_FACTOR = 20;

/**
 * Collapses Markdown to a plain one-line description of at most `max` characters (for meta tags). Reads only the
 * first `max × 20` characters, with bounded tags and links: on a 2.5 MB run of `[` or `<` the unbounded
 * patterns rescanned the rest of the text from every bracket (quadratic; 34 s for 1 MB in workerd, issue 14).
 */
export function plainSummary(text: string | undefined, max = 200): string | undefined {
  if (!text) return undefined;
  const source = text.length > max * SUMMARY_SOURCE_FACTOR ? text.slice(0, max * SUMMARY_SOURCE_FACTOR) : text;
  const plain = source.replace(/<[^<>]{0,400}>/g, " ").replace(/!?\[([^[\]]{0,400})\]\([^()]{0,1000}\)/g, "$1").replace(/[`*_#>|~]/g, "").replace(/\s+/g, " ").trim();
  if (!plain) return undefined;
  return plain.length > max ? plain.slice(0, max - 1).trimEnd() + "…" : plain;
}

/** Everything up to and including `<body>`. */
export function documentStart(head: HeadInfo): string {
  const parts = [
    "<!doctype html>",
    `<html lang="${esc(head.locale ?? "en")}"${head.theme ? ` data-theme="${head.theme === "dark" ? "dark" : "light"}"` : ""}>`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    // No favicon request (and no 404 in the console) unless a portal brands one.
    head.favicon ? `<link rel="icon" href="${esc(head.favicon)}">` : '<link rel="icon" href="data:,">',
    `<title>${esc(head.title)}</title>`,
  ];
  if (head.description) parts.push(`<meta name="description" content="${esc(head.description)}">`);
  if (head.canonicalUrl) parts.push(`<link rel="canonical" href="${esc(head.canonicalUrl)}">`);
  if (head.og) {
    parts.push(`<meta property="og:type" content="${esc(head.og.type ?? "article")}">`, `<meta property="og:title" content="${esc(head.og.title)}">`,
      `<meta property="og:site_name" content="${esc(head.og.siteName)}">`);
    if (head.og.description) parts.push(`<meta property="og:description" content="${esc(head.og.description)}">`);
    if (head.canonicalUrl) parts.push(`<meta property="og:url" content="${esc(head.canonicalUrl)}">`);
    parts.push('<meta name="twitter:card" content="summary">');
  }
  parts.push(`<link rel="stylesheet" href="${ASSETS.css}">`, `<script src="${ASSETS.themeInit}"></script>`, `<script type="module" src="${ASSETS.islands}"></script>`);
  if (head.anchors) parts.push(`<script type="module" src="${ASSETS.anchors}"></script>`);
  if (head.extra) parts.push(...head.extra);
  parts.push("</head>", "<body>");
  return parts.join("\n");
}

/** Closes the document. */
export function documentEnd(): string {
  return "\n</body>\n</html>\n";
}
