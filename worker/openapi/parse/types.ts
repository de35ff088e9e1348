/** @module Shapes returned by {@link parseDocument}: parsed data plus a lazy source locator, or a located error. */

/** A 1-based source position (column counts UTF-16 code units, the BOM excluded). */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Why a text could not be turned into a document. */
export type ParseErrorCode = "syntax" | "too-deep" | "aliases" | "empty" | "not-object";

export interface ParseError {
  code: ParseErrorCode;
  message: string;
  line?: number;
  column?: number;
}

/** A non-fatal problem noticed while parsing (YAML duplicate keys, unknown tags). */
export interface ParseWarning {
  code: "duplicate-key" | "yaml-warning";
  message: string;
  line?: number;
  column?: number;
}

/** A successfully parsed document. `data` is a plain object unless `requireObject: false` was passed. */
export interface ParsedDocument {
  format: "json" | "yaml";
  data: unknown;
  /**
   * Where the node at a JSON-pointer path (segments, unescaped) starts in the source. For an object member this
   * is its key; for an array item and the root, the value. A path that does not exist yields its nearest
   * existing ancestor; `undefined` only when nothing can be located.
   */
  locate(path: readonly (string | number)[]): SourcePosition | undefined;
  /** Non-fatal problems; the data is still usable (for duplicate keys the last value wins, as in JSON.parse). */
  warnings: ParseWarning[];
}

export type ParseOutcome = { ok: true; doc: ParsedDocument } | { ok: false; error: ParseError };

export interface ParseOptions {
  /** Maximum nesting of objects/arrays (default {@link DEFAULT_MAX_DEPTH}). */
  maxDepth?: number;
  /** YAML: limit passed to the `yaml` library's alias-expansion check (default {@link DEFAULT_MAX_ALIAS_COUNT}). */
  maxAliasCount?: number;
  /**
   * Refuse a top level that is not an object with code "not-object" (default true). Fragments of a multi-file
   * definition may be arrays or scalars; pass false to accept any value as `data`.
   */
  requireObject?: boolean;
  /** Spent while parsing large YAML entry by entry (one unit per 64 characters); throws BudgetExceeded when out. */
  budget?: import("../work-budget").WorkBudget;
}

export const DEFAULT_MAX_DEPTH = 256;
export const DEFAULT_MAX_ALIAS_COUNT = 1000;
