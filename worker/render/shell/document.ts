/** @module The HTML document around a shell page: the common head plus what a page type adds (theme, hreflang, feed). */
import { documentEnd, documentStart, esc, type HeadInfo } from "../components/document";
import type { ShellChrome } from "./types";

/** Stylesheet and script of content pages (prose, callouts, code steps), on top of portico.css. */
export const CONTENT_ASSETS = { css: "/content.css", script: "/assets/content.js" } as const;

/** A page's head: {@link HeadInfo} plus alternates, feed, robots and whether it holds written content. */
export interface ShellHead extends HeadInfo {
  /** Alternate locale URLs (absolute), hreflang. */
  alternates?: { locale: string; href: string }[];
  rss?: string;
  noindex?: boolean;
  /** Guides, steps, changelog, glossary: content.css and the tabs/steps script. */
  content?: boolean;
}

/** The whole document: head (with the portal's theme from `chrome`), then `body` (the shell, already rendered). */
export function shellDocument(chrome: ShellChrome, head: ShellHead, body: string): string {
  const extra: string[] = [];
  if (head.content) extra.push(`<link rel="stylesheet" href="${CONTENT_ASSETS.css}">`);
  // Raw text (a `<style>` is not HTML-escaped): its exact bytes are what the CSP's hash admits.
  if (chrome.themeStyle) extra.push(`<style>${chrome.themeStyle}</style>`);
  // The writer's own stylesheet comes last so it can override anything above (docs/branding.md, "Custom CSS").
  if (chrome.customCss) extra.push(`<link rel="stylesheet" href="${esc(chrome.customCss)}">`);
  for (const a of head.alternates ?? []) extra.push(`<link rel="alternate" hreflang="${esc(a.locale)}" href="${esc(a.href)}">`);
  // The default locale's page (listed first) also answers for languages without a variant.
  if (head.alternates && head.alternates.length > 1) extra.push(`<link rel="alternate" hreflang="x-default" href="${esc(head.alternates[0].href)}">`);
  if (head.rss) extra.push(`<link rel="alternate" type="application/rss+xml" title="Changelog" href="${esc(head.rss)}">`);
  if (head.content) extra.push(`<script type="module" src="${CONTENT_ASSETS.script}"></script>`);
  if (head.noindex) extra.push('<meta name="robots" content="noindex">');
  return documentStart({ ...head, locale: head.locale ?? chrome.locale, ...(chrome.favicon ? { favicon: chrome.favicon } : {}), ...(chrome.themeDefault ? { theme: chrome.themeDefault } : {}), extra: [...extra, ...(head.extra ?? [])] }) + body + documentEnd();
}
