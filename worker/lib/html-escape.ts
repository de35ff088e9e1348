/**
 * @module HTML escaping, the one copy every layer uses (core, content, render). Platform-free: no bindings, no
 * hono, no preact. Markup that is built as strings (sanitised Markdown, highlighted code, documents streamed in
 * parts) escapes through here; Preact escapes its own text and attributes.
 */

/** Escapes `& < > " '` so `s` is safe as element text and inside a single- or double-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * Escapes `& < >` only: for element text (never attributes), where quotes may stay one byte each (JSON examples
 * are mostly quotes).
 */
export function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
