/** @module Sanitised Markdown as a component. */
import { renderMarkdown, renderMarkdownInline } from "../markdown";

/** A description block; renders nothing for empty text. */
export function Markdown({ text, class: cls = "md" }: { text?: string; class?: string }) {
  if (!text || !text.trim()) return null;
  return <div class={cls} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
}

/** A one-line summary with inline Markdown (code spans, emphasis, links). */
export function InlineMarkdown({ text }: { text?: string }) {
  if (!text) return null;
  return <span dangerouslySetInnerHTML={{ __html: renderMarkdownInline(text) }} />;
}
