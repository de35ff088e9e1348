/**
 * @module `{{name}}` placeholders filled with values: the one filler behind code samples and examples
 * (openapi/samples/variables.ts), search results (routes/search.ts) and stored content pages (content/markers.ts).
 * Platform-free. Values are looked up as own properties only, so `{{constructor}}` is never Object's.
 */
import { escapeHtml } from "./html-escape";

/** Which spellings a text may carry, and how values go in. */
export interface FillOptions {
  /** Escape values for HTML (the text around them is already markup). Default false: plain text. */
  html?: boolean;
  /** Also `%7B%7Bname%7D%7D`, as a placeholder stands in a built URL, filled with the percent-encoded value (RFC 3986 §2.1). */
  encoded?: boolean;
  /**
   * Search snippets: the name may carry the highlighter's `<mark>`/`</mark>`, dropped from the name; in HTML the
   * value is then wrapped in one `<mark>`.
   */
  marks?: boolean;
  /**
   * Stored content pages: `\uE000name\uE001` markers (content/markers.ts) instead of braces; one without a value
   * is written back as `{{name}}`, as the author wrote it.
   */
  markers?: boolean;
}

const BRACES = /\{\{([A-Za-z0-9_]{1,160})\}\}/g;
const BRACES_MARKED = /\{\{((?:<\/?mark>|[A-Za-z0-9_]){1,160})\}\}/g;
const ENCODED = /%7B%7B([A-Za-z0-9_]{1,160})%7D%7D/gi;
/** A `{{name}}` as content compilation marks it in stored HTML (content/markers.ts VAR_MARKER). */
export const VARIABLE_MARKER = /\uE000([A-Za-z_][A-Za-z0-9_]*)\uE001/g;

/** The value of `name` in the first of `sources` that has it as an own property. */
function valueOf(name: string, sources: readonly Readonly<Record<string, string>>[]): string | undefined {
  for (const source of sources) if (Object.hasOwn(source, name)) return source[name];
  return undefined;
}

/**
 * `text` with each placeholder `sources` knows (the first that has the name wins: a reader's own values, then the
 * defaults) replaced by its value; unknown names stay as written.
 */
export function fillPlaceholders(text: string, sources: readonly Readonly<Record<string, string>>[], options: FillOptions = {}): string {
  const put = (value: string) => (options.html ? escapeHtml(value) : value);
  if (options.markers) {
    return text.replace(VARIABLE_MARKER, (_m, name: string) => {
      const value = valueOf(name, sources);
      return value === undefined ? `{{${name}}}` : put(value);
    });
  }
  if (text.includes("{{")) {
    text = text.replace(options.marks ? BRACES_MARKED : BRACES, (m, inner: string) => {
      const name = options.marks ? inner.replace(/<\/?mark>/g, "") : inner;
      const value = valueOf(name, sources);
      if (value === undefined) return m;
      return options.html && options.marks && inner.includes("<mark>") ? `<mark>${put(value)}</mark>` : put(value);
    });
  }
  if (options.encoded && /%7B%7B/i.test(text)) {
    text = text.replace(ENCODED, (m, name: string) => {
      const value = valueOf(name, sources);
      return value === undefined ? m : encodeURIComponent(value);
    });
  }
  return text;
}
