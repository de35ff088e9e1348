/**
 * @module Reader markers in stored HTML and their per-reader substitution. Pages are parsed once at publish;
 * what differs per reader stays marked so a request only substitutes (../shared/ARCHITECTURE.md):
 * - `\uE000name\uE001`: a `{{name}}` variable (text, headings, code, attributes);
 * - `\uE002`: the portal's base path at the start of an internal link (`/p/acme` locally, "" on a custom domain);
 * - `<!--a:partners,beta-->` … `<!--/a-->`: an audience block (nests); sanitised HTML never holds comments.
 */
import { canRead, type ReaderContext } from "../access/reader";
import { fillPlaceholders, VARIABLE_MARKER } from "../lib/placeholders";

export const VAR_MARKER = VARIABLE_MARKER;
export const BASE_MARKER = "\uE002";
const AUDIENCE = /<!--a:([a-z0-9_,-]*)-->|<!--\/a-->/g;

/** Removes the private-use characters markers are made of from author text (no forged markers). */
export function stripMarkerChars(text: string): string {
  return text.replace(/[\uE000-\uE002]/g, "");
}

/** Drops the audience blocks the reader cannot read (their content and markers), keeps the rest unmarked. */
export function filterAudiences(html: string, reader: Pick<ReaderContext, "audiences">): string {
  if (!html.includes("<!--")) return html;
  let out = "";
  let last = 0;
  // Depth of blocks entered, and the depth at which a hidden block started (0: nothing hidden).
  let depth = 0;
  let hiddenAt = 0;
  AUDIENCE.lastIndex = 0;
  for (let m = AUDIENCE.exec(html); m; m = AUDIENCE.exec(html)) {
    if (hiddenAt === 0) out += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[1] !== undefined) {
      depth++;
      if (hiddenAt === 0 && !canRead(reader, m[1].split(",").filter(Boolean))) hiddenAt = depth;
    } else if (depth > 0) {
      if (hiddenAt === depth) hiddenAt = 0;
      depth--;
    }
  }
  if (hiddenAt === 0) out += html.slice(last);
  return out;
}

/** Options of one substitution: the portal base path and the bundle's variable defaults. */
export interface ReaderRenderOptions {
  basePath: string;
  defaults: Record<string, string>;
  /** Escape variable values for HTML (true, default) or leave them raw (plain-text outputs like llms.txt). */
  html?: boolean;
}

/**
 * The reader's HTML of a stored page: audience blocks the reader cannot read dropped, variables filled (the
 * reader's value, else the bundle default, else the placeholder as written), internal links based.
 */
export function renderForReader(stored: string, reader: ReaderContext, opts: ReaderRenderOptions): string {
  const filled = fillPlaceholders(filterAudiences(stored, reader), [reader.variables, opts.defaults], { markers: true, html: opts.html !== false });
  return filled.replaceAll(BASE_MARKER, opts.basePath);
}
