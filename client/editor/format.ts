/** @module Telling YAML from JSON without parsing (kept apart from the `yaml` library so the page need not load it). */
import type { SourceFormat } from "./protocol";

/** `json` when the first non-blank character opens a JSON object or array, else `yaml`. */
export function detectFormat(text: string): SourceFormat {
  const m = /^[\s\ufeff]*(\S)/.exec(text);
  return m && (m[1] === "{" || m[1] === "[") ? "json" : "yaml";
}
