/** @module JSON branch of {@link parseDocument}: depth pre-scan, JSON.parse, located syntax errors, lazy locate. */

import { createJsonLocator } from "./json-locate";
import { findExcessDepth, findJsonSyntaxError } from "./json-scan";
import { LineIndex } from "./line-index";
import type { ParseOutcome } from "./types";

/** Parses JSON text (BOM already removed). The depth limit is checked first because JSON.parse recurses. */
export function parseJson(text: string, maxDepth: number, requireObject = true): ParseOutcome {
  const tooDeep = findExcessDepth(text, maxDepth);
  if (tooDeep !== -1) {
    const at = new LineIndex(text).position(tooDeep);
    return { ok: false, error: { code: "too-deep", message: `Nesting deeper than ${maxDepth} levels`, ...at } };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const found = findJsonSyntaxError(text);
    const message = found?.message ?? (e instanceof Error ? e.message : "Invalid JSON");
    const at = found ? new LineIndex(text).position(found.offset) : undefined;
    return { ok: false, error: { code: "syntax", message: at ? `${message} (line ${at.line}, column ${at.column})` : message, ...at } };
  }
  if (requireObject && (data === null || typeof data !== "object" || Array.isArray(data))) {
    const kind = Array.isArray(data) ? "an array" : data === null ? "null" : `a ${typeof data}`;
    return { ok: false, error: { code: "not-object", message: `The document is ${kind}, not an object`, line: 1, column: 1 } };
  }
  return { ok: true, doc: { format: "json", data, locate: createJsonLocator(text), warnings: [] } };
}
