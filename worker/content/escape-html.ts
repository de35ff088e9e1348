/** @module HTML escaping for the content pipeline's generated markup (text and double-quoted attribute positions). */

/** Escapes `& < > " '` so `s` is safe as element text and inside a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
