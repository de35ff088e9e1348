/**
 * @module `{{name}}` placeholders in an operation's code samples and examples, filled for the reader (the readers
 * issue: variables resolve in operation code samples too). Plain text in, plain text out: the renderer escapes.
 */

import { fillPlaceholders as fill } from "../../lib/placeholders";

/**
 * `text` with every `{{name}}` that `values` knows replaced by its value (a percent-encoded `%7B%7Bname%7D%7D` by
 * the percent-encoded value, RFC 3986 §2.1); unknown names stay as written.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return fill(text, [values], { encoded: true });
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
