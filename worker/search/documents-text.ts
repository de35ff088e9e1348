/**
 * @module Plain text for search documents: Markdown or sanitised HTML reduced to the words a reader sees
 * (tags, Markdown punctuation, link targets and entities removed; whitespace collapsed). Inputs are definitions
 * and bundles, so hostile: a bounded prefix is read and every pattern is linear (no nested quantifiers).
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", nbsp: " " };

/** Decodes the entities sanitised HTML uses (named few, decimal and hex); others stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z0-9]{2,8});/g, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

/**
 * Plain text of Markdown or HTML, at most `max` characters (cut at a word boundary when one is near).
 * Links keep their text, images their alt text, code its content; `<!--…-->` comments are dropped.
 */
export function plainText(source: string, max = 10_000): string {
  let s = source.length > max * 4 ? source.slice(0, max * 4) : source;
  // Each pass runs only when the character every one of its matches needs is there: the same text, without a dozen
  // full scans of every description (GitHub's 1,223 operations: the search step of a publish, issue 12).
  if (s.includes("<")) {
    s = s
      .replace(/<!--[^]*?-->/g, " ")
      .replace(/<(?:br|\/p|\/li|\/h[1-6]|\/div|\/tr|\/dt|\/dd|\/pre)\b[^>]*>/gi, "\n")
      .replace(/<[^>]*>/g, " ");
  }
  if (s.includes("]")) {
    s = s
      .replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
      .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
      .replace(/\[([^\]\n]*)\]\[[^\]\n]*\]/g, "$1");
  }
  s = s.replace(/^[ \t]*(?:#{1,6}|>|[-*+]|\d{1,3}[.)])[ \t]+/gm, "");
  if (s.includes("```") || s.includes("~~~")) s = s.replace(/```[^\n]*|~~~[^\n]*/g, " ");
  s = s.replace(/[*`~|]+/g, " ");
  if (s.includes("&")) s = decodeEntities(s);
  // Spaces are collapsed only where there is something to collapse: a text whose only blanks are single spaces
  // would be rebuilt unchanged, space by space.
  if (/[\t\r\f\v\u00a0]| {2}/.test(s)) s = s.replace(/[ \t\r\f\v\u00a0]+/g, " ");
  if (s.includes("\n")) s = s.replace(/ ?\n[\s]*/g, "\n");
  s = s.trim();
  if (s.length <= max) return s;
  const cut = s.lastIndexOf(" ", max);
  return s.slice(0, cut > max - 40 ? cut : max);
}
