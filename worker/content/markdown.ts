/**
 * @module The guide Markdown pipeline: markdown-it (CommonMark + GFM tables) with the extensions of
 * extensions.ts, stable heading anchors (markdown-it-anchor), highlight.js code blocks, links resolved through
 * the caller's resolver (guides, `op:` links, assets), then sanitize-html, then reader markers (markers.ts).
 * Never throws on author input; the output holds no script, event handler or `javascript:` URL.
 */
import MarkdownIt, { type StateCore } from "markdown-it";
import anchor from "markdown-it-anchor";
import sanitizeHtml from "sanitize-html";
import { glossaryMatcher, useContainers, useGlossary } from "./extensions";
import { highlightCode, languageOf } from "./highlight";
import { stripMarkerChars } from "./markers";
import type { RenderEnv } from "./render-env";

/** Stable ASCII anchor of a heading's text (accents folded; variables keep their name). */
export function slugify(text: string): string {
  return (
    text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[\uE000-\uE002]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "section"
  );
}

const md = new MarkdownIt({
  html: true,
  linkify: true,
  typographer: false,
  highlight: (code, info) => {
    const lang = info.trim().split(/\s+/)[0] ?? "";
    const grammar = languageOf(lang);
    return `<pre class="code"><code class="hljs${grammar ? ` language-${grammar}` : ""}">${highlightCode(code, lang)}</code></pre>`;
  },
});
useContainers(md);
md.use(anchor, {
  level: [2, 3, 4],
  slugify,
  tabIndex: false,
  permalink: anchor.permalink.linkInsideHeader({ symbol: "#", placement: "after", ariaHidden: true, class: "header-anchor" }),
});
useGlossary(md);

// Links: line numbers for reports, and the resolver's target (internal links get the base-path marker).
md.core.ruler.push("portico_links", (state: StateCore) => {
  const env = state.env as unknown as RenderEnv;
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    let line = env.bodyLine + (block.map?.[0] ?? 0);
    for (const tok of block.children) {
      if (tok.type === "softbreak" || tok.type === "hardbreak") line++;
      const attr = tok.type === "link_open" ? "href" : tok.type === "image" ? "src" : undefined;
      if (!attr || tok.markup === "linkify" || tok.attrGet("class") === "header-anchor") continue;
      const raw = String(tok.attrGet(attr) ?? "");
      const resolved = env.resolve(safeDecode(raw), tok.type === "image" ? "image" : "link", line);
      tok.attrSet(attr, resolved ?? "#");
    }
  }
});

// On-this-page entries: h2/h3 ids and text, with the audience labels of the blocks they sit in.
md.core.ruler.push("portico_toc", (state: StateCore) => {
  const env = state.env as unknown as RenderEnv;
  const labels: string[][] = [];
  state.tokens.forEach((tok, i) => {
    if (tok.type === "container_audience_open") labels.push(tok.info.trim().replace(/^audience\s*/, "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean));
    if (tok.type === "container_audience_close") labels.pop();
    if (tok.type !== "heading_open" || (tok.tag !== "h2" && tok.tag !== "h3")) return;
    const text = (state.tokens[i + 1].children ?? []).filter((c) => c.type === "text" || c.type === "code_inline").map((c) => c.content).join("").trim();
    env.toc.push({ level: Number(tok.tag[1]), id: String(tok.attrGet("id") ?? ""), text, labels: labels.length ? labels[labels.length - 1] : [] });
  });
});

function safeDecode(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "kbd", "samp", "var", "em", "strong", "b",
    "i", "u", "s", "del", "ins", "mark", "sub", "sup", "small", "abbr", "a", "img", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead",
    "tbody", "tfoot", "tr", "th", "td", "caption", "span", "div", "details", "summary", "aside", "section", "figure", "figcaption",
    "portico-audience"],
  allowedAttributes: {
    a: ["href", "title", "id", "rel", "class", "aria-hidden"],
    img: ["src", "alt", "title", "width", "height"],
    h2: ["id"], h3: ["id"], h4: ["id"],
    code: ["class"], pre: ["class"], aside: ["class", "role"], section: ["class"], div: ["class"], p: ["class"],
    span: ["class", "tabindex", "role", "id", "aria-describedby"],
    th: ["align", "style", "colspan", "rowspan"], td: ["align", "style", "colspan", "rowspan"],
    abbr: ["title"], ol: ["start"], "portico-audience": ["data-labels"], "*": ["lang", "dir"],
  },
  allowedClasses: {
    code: [/^language-[\w+-]+$/, "hljs"], pre: ["code"], a: ["header-anchor"], span: [/^hljs-[\w-]+$/, "term", "term-def"],
    aside: [/^callout(-\w+)?$/], section: ["tab"], div: ["tabs"], p: ["callout-title", "tab-title"],
  },
  allowedStyles: { th: { "text-align": [/^(left|right|center)$/] }, td: { "text-align": [/^(left|right|center)$/] } },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "escape",
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: /^https?:/i.test(attribs.href ?? "") ? { ...attribs, rel: "nofollow noopener" } : attribs }),
  },
};

/** A page's Markdown rendered: stored HTML (markers kept) and what the render found in `env`. */
export function renderContentMarkdown(source: string, env: RenderEnv): string {
  const text = stripMarkerChars(source).replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_m, name: string) => `\uE000${name}\uE001`);
  noteVariables(text, env);
  const html = sanitizeHtml(md.render(text, env as unknown as Record<string, unknown>), SANITIZE);
  return html
    .replace(/%EE%80%8([0-2])/gi, (_m, d: string) => String.fromCharCode(0xe000 + Number(d)))
    // A variable opening a URL could make it `javascript:` once filled: such URLs stay relative.
    .replace(/(href|src)="\uE000/g, '$1="./\uE000')
    .replace(/<portico-audience data-labels="([a-z0-9_,-]*)">\n?/g, "<!--a:$1-->")
    .replace(/<\/portico-audience>\n?/g, "<!--/a-->");
}

function noteVariables(text: string, env: RenderEnv): void {
  const lines = text.split("\n");
  lines.forEach((l, i) => {
    for (const m of l.matchAll(/\uE000([A-Za-z0-9_]+)\uE001/g)) {
      if (!env.variables.has(m[1])) env.unknownVariables.push({ file: env.file, line: env.bodyLine + i, name: m[1] });
    }
  });
}

/** Inline HTML of a short Markdown text (glossary definitions), sanitised; no links resolved. */
export function renderInlineMarkdown(text: string): string {
  const env: Partial<RenderEnv> = { resolve: () => undefined, bodyLine: 1, toc: [], termsUsed: new Set() };
  return sanitizeHtml(md.renderInline(stripMarkerChars(text), env as unknown as Record<string, unknown>), SANITIZE);
}

export { glossaryMatcher };
