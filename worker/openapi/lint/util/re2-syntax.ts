/**
 * @module Rewrites of ECMA-262 pattern syntax that RE2 refuses but can match more permissively. Each rewrite
 * accepts a superset of what the original accepts, so a check through it can miss a mismatch but never
 * reports a false one.
 */

/** RE2's largest repetition count (`{n}`, `{m,n}`); larger ones are a syntax error there. */
const RE2_MAX_REPEAT = 1000;

/**
 * `pattern` with counted repetitions above RE2's limit widened (`.{0,1023}` → `.{0,}`, `x{2048}` → `x{1000,}`)
 * and `\p{ASCII}` / `\P{ASCII}` spelled as ranges. Escapes and character classes are respected.
 */
export function widenForRe2(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const ascii = /^\\([pP])\{ASCII\}/.exec(pattern.slice(i, i + 10));
      if (ascii) {
        const range = "\\x00-\\x7F";
        out += inClass ? (ascii[1] === "p" ? range : "") : ascii[1] === "p" ? `[${range}]` : `[^${range}]`;
        i += ascii[0].length - 1;
        continue;
      }
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      out += ch;
      if (pattern[i + 1] === "^") out += pattern[++i];
      if (pattern[i + 1] === "]") out += pattern[++i]; // `[]` / `[^]` edge: a literal first `]` is not the end in RE2
      continue;
    }
    if (ch === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (m) {
        const min = Number(m[1]);
        const max = m[3] === undefined ? (m[2] ? Infinity : min) : m[3] === "" ? Infinity : Number(m[3]);
        if (min > RE2_MAX_REPEAT || (max !== Infinity && max > RE2_MAX_REPEAT)) {
          out += `{${Math.min(min, RE2_MAX_REPEAT)},}`;
          i += m[0].length - 1;
          continue;
        }
      }
    }
    out += ch;
  }
  return out;
}
