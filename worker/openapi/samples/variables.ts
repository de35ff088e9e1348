/**
 * @module `{{name}}` placeholders in an operation's code samples and examples, filled for the reader (the readers
 * issue: variables resolve in operation code samples too). Plain text in, plain text out: the renderer escapes.
 */

const PLACEHOLDER = /\{\{([A-Za-z0-9_]{1,160})\}\}/g;
/** The same placeholder percent-encoded, as it stands in a sample's path or query once the URL is built. */
const ENCODED = /%7B%7B([A-Za-z0-9_]{1,160})%7D%7D/gi;

/**
 * `text` with every `{{name}}` that `values` knows replaced by its value (a percent-encoded `%7B%7Bname%7D%7D` by
 * the percent-encoded value, RFC 3986 §2.1); unknown names stay as written.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  if (text.includes("{{")) text = text.replace(PLACEHOLDER, (m, name: string) => (Object.hasOwn(values, name) ? values[name]! : m));
  if (/%7B%7B/i.test(text)) text = text.replace(ENCODED, (m, name: string) => (Object.hasOwn(values, name) ? encodeURIComponent(values[name]!) : m));
  return text;
}

/**
 * A copy of `value` (a sample input, an example: JSON-like data) with placeholders filled in every string, keys
 * included. Returns `value` itself when there is nothing to fill, so pages without variables cost nothing.
 */
export function fillPlaceholdersDeep<T>(value: T, values: Readonly<Record<string, string>>): T {
  if (Object.keys(values).length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return fillPlaceholders(v, values);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [fillPlaceholders(k, values), walk(x)]));
    return v;
  };
  return walk(value) as T;
}
