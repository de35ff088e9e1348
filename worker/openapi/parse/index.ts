/** @module Text → data for OpenAPI definitions (JSON or YAML), with source positions and hostile-input limits. */

import { BudgetExceeded } from "../work-budget";
import { parseJson } from "./json";
import { parseYaml } from "./yaml";
import { DEFAULT_MAX_ALIAS_COUNT, DEFAULT_MAX_DEPTH } from "./types";
import type { ParseOptions, ParseOutcome } from "./types";

export type { ParsedDocument, ParseError, ParseErrorCode, ParseOptions, ParseOutcome, ParseWarning, SourcePosition } from "./types";
export { DEFAULT_MAX_ALIAS_COUNT, DEFAULT_MAX_DEPTH } from "./types";

/**
 * Parses a definition's text. JSON when the first non-blank character is `{` or `[` (JSON.parse, positions
 * computed lazily by `locate`), otherwise YAML 1.2 (core schema, `<<` merge keys accepted). Refuses nesting past
 * `maxDepth`, alias bombs and alias cycles, empty input and a top level that is not an object. Throws only the
 * BudgetExceeded of `options.budget`.
 */
export function parseDocument(text: string, options: ParseOptions = {}): ParseOutcome {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxAliasCount = options.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT;
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let first = 0;
  while (first < source.length && /\s/.test(source[first])) first++;
  if (first === source.length) return { ok: false, error: { code: "empty", message: "The document is empty" } };
  try {
    const c = source[first];
    const requireObject = options.requireObject ?? true;
    return c === "{" || c === "[" ? parseJson(source, maxDepth, requireObject) : parseYaml(source, maxDepth, maxAliasCount, requireObject, undefined, options.budget);
  } catch (e) {
    if (e instanceof BudgetExceeded) throw e;
    // Last line of defence: the libraries may throw on inputs we have not foreseen; callers get a result.
    const message = e instanceof RangeError ? "The document is too deeply nested or too large to parse" : e instanceof Error ? e.message : String(e);
    return { ok: false, error: { code: e instanceof RangeError ? "too-deep" : "syntax", message } };
  }
}
