/** @module Sanitised Markdown as a component. */
import { renderMarkdown, renderMarkdownInline } from "../markdown";

/** A description block; renders nothing for empty text. */
export function Markdown({ text, class: cls = "md", headingShift }: { text?: string; class?: string; headingShift?: number }) {
  if (!text || !text.trim()) return null;
  const html = renderMarkdown(text, headingShift);
  // A lone paragraph (most property descriptions) needs no wrapper: the page repeats this hundreds of times.
  const lone = /^<p>([\s\S]*)<\/p>\n?$/.exec(html);
  if (lone && !lone[1].includes("<p>") && !lone[1].includes("</p>")) return <p class={cls} dangerouslySetInnerHTML={{ __html: lone[1] }} />;
  return <div class={cls} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A one-line summary with inline Markdown (code spans, emphasis, links). */
export function InlineMarkdown({ text }: { text?: string }) {
  if (!text) return null;
  return <span dangerouslySetInnerHTML={{ __html: renderMarkdownInline(text) }} />;
}
