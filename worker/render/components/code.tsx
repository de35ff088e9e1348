/** @module Inline and block code whose text is escaped minimally (`&`, `<`, `>`): JSON quotes stay one byte each. */

/** Escapes text for an HTML text position (not attributes). */
export function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `<code>` with `text` as its content. */
export function Code({ text, id }: { text: string; id?: string }) {
  return <code id={id} dangerouslySetInnerHTML={{ __html: escapeText(text) }} />;
}
