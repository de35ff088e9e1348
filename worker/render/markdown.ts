/**
 * @module Descriptions: CommonMark + GFM tables through markdown-it, then sanitize-html, so no definition can
 * put script, event handlers or `javascript:` URLs on a page. Results are memoised (descriptions repeat).
 */
import MarkdownIt, { type RendererRule } from "markdown-it";
import sanitizeHtml from "sanitize-html";
import { BUDGET_NOTES, TEXT_BUDGET } from "../openapi/budgets";
import { escapeHtml } from "../lib/html-escape";

const md = new MarkdownIt({ html: true, linkify: true, typographer: false });

// Description headings sit under the page's own h1-h3: shift them so the outline stays coherent.
const HEADING_SHIFT = 2;
const shiftHeading: RendererRule = (tokens, idx, options, env, self) => {
  tokens[idx].tag = `h${Math.min(6, Number(tokens[idx].tag.slice(1)) + ((env as { shift?: number } | undefined)?.shift ?? HEADING_SHIFT))}`;
  return self.renderToken(tokens, idx, options);
};
md.renderer.rules.heading_open = shiftHeading;
md.renderer.rules.heading_close = shiftHeading;

const ALIGN_CLASSES = ["ta-left", "ta-center", "ta-right"];

// GFM table alignment arrives as style="text-align:…" (or align=…): the page's CSP blocks style attributes, so
// it becomes a class from portico.css. Every other attribute but the span counts is dropped.
const alignToClass: sanitizeHtml.Transformer = (tagName, attribs) => {
  const align = /text-align:\s*(left|right|center)/i.exec(attribs.style ?? "")?.[1] ?? /^(left|right|center)$/i.exec(attribs.align ?? "")?.[1];
  const kept: sanitizeHtml.Attributes = {};
  for (const k of ["colspan", "rowspan"]) if (attribs[k] !== undefined) kept[k] = attribs[k];
  if (align) kept.class = `ta-${align.toLowerCase()}`;
  return { tagName, attribs: kept };
};

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "hr", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "kbd", "samp", "var", "em", "strong", "b", "i", "u",
    "s", "del", "ins", "mark", "sub", "sup", "small", "abbr", "a", "img", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody",
    "tfoot", "tr", "th", "td", "caption", "span", "div", "details", "summary"],
  allowedAttributes: {
    a: ["href", "title", "name", "id", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"], pre: ["class"],
    th: ["class", "colspan", "rowspan"], td: ["class", "colspan", "rowspan"],
    abbr: ["title"], ol: ["start"], "*": ["lang", "dir"],
  },
  allowedClasses: { code: [/^language-[\w+-]+$/], pre: [/^language-[\w+-]+$/], th: ALIGN_CLASSES, td: ALIGN_CLASSES },
  allowedStyles: {},
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "escape",
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "nofollow noopener" }), th: alignToClass, td: alignToClass },
  // Relative image paths would point at the portal itself (never where the definition's author meant): drop them.
  exclusiveFilter: (frame) => frame.tag === "img" && !/^https?:\/\//i.test(frame.attribs.src ?? ""),
};

const CACHE_LIMIT = 4000;
const cache = new Map<string, string>();
const PLAIN = /^[^\\`*_[\]<>#|~!&\n:=+-]*$/;

/**
 * Safe HTML for a CommonMark description (block level: paragraphs, lists, tables, code). A description longer
 * than {@link TEXT_BUDGET}.maxMarkdownChars is cut there, with a note saying how much is not shown. `headingShift`:
 * levels added to its headings (2 under an operation's sections; 0 in a version's intro, right under its h1).
 */
export function renderMarkdown(text: string, headingShift = HEADING_SHIFT): string {
  if (!text) return "";
  const key = headingShift === HEADING_SHIFT ? text : `${headingShift}\0${text}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const cut = text.length > TEXT_BUDGET.maxMarkdownChars ? text.length - TEXT_BUDGET.maxMarkdownChars : 0;
  const source = cut > 0 ? text.slice(0, TEXT_BUDGET.maxMarkdownChars) : text;
  // Sentences with no Markdown syntax at all need neither parser nor sanitiser: escaping is enough.
  const body = PLAIN.test(source) ? `<p>${escapeHtml(source.trim())}</p>` : sanitizeHtml(md.render(source, { shift: headingShift }), SANITIZE);
  const html = cut > 0 ? `${body}<p class="fa bn" role="note">${escapeHtml(BUDGET_NOTES.descriptionTruncated(cut))}</p>` : body;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, html);
  return html;
}

/** Safe inline HTML for a one-line summary (no paragraph wrapper), cut at {@link TEXT_BUDGET}.maxInlineChars. */
export function renderMarkdownInline(text: string): string {
  if (!text) return "";
  if (text.length > TEXT_BUDGET.maxInlineChars) text = `${text.slice(0, TEXT_BUDGET.maxInlineChars)}…`;
  if (PLAIN.test(text)) return escapeHtml(text.trim());
  return sanitizeHtml(md.renderInline(text), SANITIZE);
}
