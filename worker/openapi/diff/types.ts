/**
 * @module The diff engine's shapes: what `diff(base, revision)` answers and what its checks receive.
 * Levels and ids follow oasdiff's checker taxonomy (ERR = breaking, WARN = may break, INFO = safe); see
 * docs/diff.md for every id.
 */

import type { PathSegment } from "../model/pointer";

/** ERR: breaks existing clients; WARN: may break some; INFO: safe (a changelog line). */
export type Level = "ERR" | "WARN" | "INFO";

/** The operation a change belongs to: method in upper case (`GET`, 3.2 `QUERY`, an additional operation as written), path template of the side that has it. */
export interface ChangeOperation {
  method: string;
  path: string;
  operationId?: string;
}

/** One difference between two definitions. */
export interface Change {
  /** A rule id of docs/diff.md (oasdiff's where one exists). */
  id: string;
  level: Level;
  operation?: ChangeOperation;
  /** JSON pointer (RFC 6901) of the changed node in the revision, or in the base when the revision lacks it. */
  pointer: string;
  message: string;
  /** 1-based line of the node in the base / revision source, when the side can locate it. */
  baseLine?: number;
  revisionLine?: number;
}

/** The verdict: `breaking` when any change is ERR. */
export interface DiffResult {
  breaking: boolean;
  changes: Change[];
  counts: Record<Level, number>;
  /** Set when a budget stopped the comparison early (the changes found so far are kept). */
  truncated?: string;
}

/** One side of a diff: a normalised 3.x document (what openapi/build.ts produces) and, optionally, a way to find lines. */
export interface DiffSide {
  document: Record<string, unknown>;
  /** Where a path of `document` is written in the source (1-based line), or undefined. */
  locate?: (path: readonly PathSegment[]) => { line: number } | undefined;
}

/** Options of one diff. */
export interface DiffOptions {
  /** "Now" for sunset dates (epoch ms); default Date.now(). */
  now?: number;
}
