/**
 * @module The Markdown extensions of guides (docs/content.md): callouts (`::: note|tip|warning [title]`), tabs
 * (`:::: tabs` around `::: tab <title>`), audience blocks (`::: audience a,b`), glossary terms on first use,
 * and the guard that escapes author HTML naming our internal `portico-` tags (no forged audience blocks).
 */
import type { MarkdownIt, StateBlock, StateCore, Token } from "markdown-it";
import container from "markdown-it-container";
import type { GlossaryMatcher, RenderEnv } from "./render-env";
import { escapeHtml } from "../lib/html-escape";


const CALLOUTS = { note: "Note", tip: "Tip", warning: "Warning" } as const;

/** Audience names of an `audience a, b` container line. */
export function audienceNames(info: string): string[] {
  return info.trim().replace(/^audience\s*/, "").split(",").map((s) => s.trim()).filter(Boolean);
}

/** Registers callouts, tabs and audience containers on `md`. */
export function useContainers(md: MarkdownIt): void {
  for (const [kind, label] of Object.entries(CALLOUTS)) {
    md.use(container, kind, {
      render(tokens: Token[], idx: number) {
        if (tokens[idx].nesting !== 1) return "</aside>\n";
        const title = tokens[idx].info.trim().slice(kind.length).trim() || label;
        return `<aside class="callout callout-${kind}" role="note"><p class="callout-title">${escapeHtml(title)}</p>\n`;
      },
    });
  }
  md.use(container, "tabs", { render: (tokens: Token[], idx: number) => (tokens[idx].nesting === 1 ? '<div class="tabs">\n' : "</div>\n") });
  md.use(container, "tab", {
    render(tokens: Token[], idx: number) {
      if (tokens[idx].nesting !== 1) return "</section>\n";
      const title = tokens[idx].info.trim().slice(3).trim() || "Tab";
      return `<section class="tab"><p class="tab-title">${escapeHtml(title)}</p>\n`;
    },
  });
  md.use(container, "audience", {
    validate: (params: string) => /^audience\s+\S/.test(params.trim()),
    render(tokens: Token[], idx: number, _o: unknown, env: RenderEnv) {
      if (tokens[idx].nesting !== 1) return "</portico-audience>\n";
      const names = audienceNames(tokens[idx].info).map((n) => n.toLowerCase()).filter((n) => /^[a-z0-9_-]+$/.test(n));
      const line = env.bodyLine + (tokens[idx].map?.[0] ?? 0);
      for (const name of names) if (name !== "public" && !env.audiences.has(name)) env.unknownAudiences.push({ file: env.file, line, name });
      return `<portico-audience data-labels="${names.join(",")}">\n`;
    },
  });
  // Author HTML that names our internal tags, or a raw-text element (whose unclosed opening would swallow the rest
  // of the page as text, in markdown-it and in the sanitiser alike), is shown as text, never interpreted.
  for (const rule of ["html_block", "html_inline"] as const) {
    const original = md.renderer.rules[rule]!;
    md.renderer.rules[rule] = (tokens, idx, options, env, self) =>
      (/<\/?portico-/i.test(tokens[idx].content) || RAW_TEXT.test(tokens[idx].content)) && !tokens[idx].meta?.trusted
        ? escapeHtml(tokens[idx].content) : original(tokens, idx, options, env, self);
  }
  // An HTML block opened by `<script>`, `<style>`, or `<textarea>` runs to its closing tag (to the end of the
  // page when there is none): such lines start a paragraph instead, whose inline HTML is escaped as above.
  const rules = (md.block.ruler as unknown as { __rules__: { name: string; fn: BlockRule }[] }).__rules__;
  const htmlBlock = rules.find((r) => r.name === "html_block")!.fn;
  md.block.ruler.at("html_block", (state, start, end, silent) => {
    const pos = state.bMarks[start] + state.tShift[start];
    if (/^<\/?(script|style|textarea)(?=[\s>/]|$)/i.test(state.src.slice(pos, pos + 12))) return false;
    return htmlBlock(state, start, end, silent);
  }, { alt: ["paragraph", "reference", "blockquote"] });
}

type BlockRule = (state: StateBlock, start: number, end: number, silent: boolean) => boolean;
const RAW_TEXT = /<\/?(script|style|textarea|title|xmp|iframe|noembed|noframes|noscript|plaintext)(?=[\s>/]|$)/i;

/** Builds the matcher for a glossary; undefined when the glossary is empty. */
export function glossaryMatcher(terms: { term: string; synonyms: string[]; text: string }[]): GlossaryMatcher | undefined {
  const index = new Map<string, number>();
  terms.forEach((t, i) => [t.term, ...t.synonyms].forEach((w) => index.set(w.toLowerCase(), i)));
  if (index.size === 0) return undefined;
  const words = [...index.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { pattern: new RegExp(`(?<![\\w-])(?:${words.join("|")})(?![\\w-])`, "i"), index, definitions: terms.map((t) => t.text) };
}

/** Core rule: underlines the first use of each glossary term on a page (not in headings, links or code). */
export function useGlossary(md: MarkdownIt): void {
  md.core.ruler.push("portico_glossary", (state: StateCore) => {
    const env = state.env as unknown as RenderEnv;
    const g = env.glossary;
    if (!g) return;
    let inHeading = false;
    for (const block of state.tokens) {
      if (block.type === "heading_open") inHeading = true;
      if (block.type === "heading_close") inHeading = false;
      if (block.type !== "inline" || inHeading || !block.children) continue;
      const out: Token[] = [];
      let linkDepth = 0;
      for (const tok of block.children) {
        if (tok.type === "link_open") linkDepth++;
        if (tok.type === "link_close") linkDepth--;
        if (tok.type !== "text" || linkDepth > 0) {
          out.push(tok);
          continue;
        }
        const m = g.pattern.exec(tok.content);
        const termIndex = m ? g.index.get(m[0].toLowerCase()) : undefined;
        if (!m || termIndex === undefined || env.termsUsed.has(termIndex)) {
          out.push(tok);
          continue;
        }
        env.termsUsed.add(termIndex);
        const id = `term-${termIndex}`;
        const before = new state.Token("text", "", 0);
        before.content = tok.content.slice(0, m.index);
        const html = new state.Token("html_inline", "", 0);
        html.meta = { trusted: true };
        html.content = `<span class="term" tabindex="0" aria-describedby="${id}">${escapeHtml(m[0])}<span class="term-def" role="tooltip" id="${id}">${escapeHtml(g.definitions[termIndex])}</span></span>`;
        const after = new state.Token("text", "", 0);
        after.content = tok.content.slice(m.index + m[0].length);
        out.push(before, html, after);
      }
      block.children = out;
    }
  });
}
