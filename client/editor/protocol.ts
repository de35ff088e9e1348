/**
 * @module Messages between the editor page and its lint Web Worker, and the shapes both sides share.
 *
 * The page owns the text (CodeMirror); the worker keeps a copy updated by {@link TextChange}s, lints it, and
 * answers model, structural-edit and conversion requests against a numbered version of that text.
 */
import type { LintRuleset } from "../../worker/openapi/lint/ruleset";
import type { Segment } from "./pointer";

/** Severity names as in Spectral (`warn`, not `warning`). */
export type Severity = "error" | "warn" | "info" | "hint";

/** One problem as the editor shows it. `line`/`column` are 1-based; `path` is a JSON Pointer. */
export interface EditorProblem {
  severity: Severity;
  rule: string;
  message: string;
  line: number;
  column: number;
  path: string;
}

/** One replacement, offsets in UTF-16 code units of the text it applies to. */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

export type SourceFormat = "yaml" | "json";
export type SpecVersion = "2.0" | "3.0" | "3.1" | "3.2";

/** How a scalar is written, which decides how a new value is spliced in (see scalar-text.ts). */
export type ScalarStyle = "plain" | "double" | "single" | "literal" | "folded" | "json";

/** Where a scalar sits in the source text of the model's version, so the page can replace it in place. */
export interface ScalarSlot {
  from: number;
  to: number;
  style: ScalarStyle;
  /** Indentation (columns) for block scalar content written at this place. */
  blockIndent: number;
  /** Block scalars are not allowed here: inside a flow collection, or a comment follows on the line. */
  flow: boolean;
  /** The source slot ends with a line break (block scalars include theirs). */
  endsWithNewline: boolean;
  /** The value is written as nothing (`key:`); a replacement needs a leading space. */
  empty: boolean;
}

/** An entry of the Visual view's navigation. */
export interface OutlineEntry {
  kind: "general" | "servers" | "tags" | "operation" | "webhook" | "callback" | "schema" | "security";
  /** The node the entry edits (for `general`, `/info`). */
  pointer: string;
  label: string;
  method?: string;
  path?: string;
  summary?: string;
  deprecated?: boolean;
  tags?: string[];
  line: number;
}

/** What the Visual view needs: the outline, and values plus source slots for the nodes it shows. */
export interface VisualModel {
  version: number;
  format: SourceFormat;
  specVersion?: SpecVersion;
  /** Set when the text does not parse; the outline is then empty. */
  parseError?: { message: string; line: number };
  outline: OutlineEntry[];
  /** The pointers this model was built for (what `values`, `slots` and `lines` cover). */
  pointers: string[];
  /** JSON-safe values of the requested pointers (missing ones absent). */
  values: Record<string, unknown>;
  /** Scalars under the requested pointers, by pointer. */
  slots: Record<string, ScalarSlot>;
  /** 1-based line of every node under the requested pointers (and of every outline entry), by pointer. */
  lines: Record<string, number>;
}

/** A change of structure the page asks the worker to make with the `yaml` Document API. */
export type StructuralOp =
  | { op: "set"; path: Segment[]; value: unknown }
  | { op: "delete"; path: Segment[] }
  | { op: "rename"; path: Segment[]; key: string }
  | { op: "append"; path: Segment[]; value: unknown };

export type ToWorker =
  /**
   * `text`, or `bytes` (UTF-8, decoded by the worker: a large definition's bytes are transferred rather than a
   * string cloned on the page's thread). `lint: false` for the instance that only answers Visual, edit and
   * conversion requests; `ruleset`: the portal's; `timing`: add {@link LintTiming} to each result (benchmark).
   */
  | { type: "open"; version: number; text?: string; bytes?: ArrayBuffer; lint?: boolean; ruleset?: LintRuleset; timing?: boolean }
  | { type: "edit"; version: number; changes: TextChange[] }
  | { type: "model"; id: number; version: number; pointers: string[] }
  | { type: "structural"; id: number; version: number; op: StructuralOp }
  | { type: "convert"; id: number; version: number; to: SourceFormat };

/**
 * When the worker handled a lint, as wall-clock milliseconds (`performance.timeOrigin + performance.now()`, so
 * the page can place them on its own clock): the last edit of the burst received, the lint started, the result
 * posted (before its structured clone). Sent only when the session was opened with `timing` (the benchmark).
 */
export interface LintTiming {
  editAt: number;
  startAt: number;
  postAt: number;
}

export type FromWorker =
  | { type: "problems"; version: number; problems: EditorProblem[]; errors: number; warnings: number; lintMs: number; timing?: LintTiming }
  | { type: "model"; id: number; version: number; model: VisualModel }
  | { type: "structural"; id: number; version: number; change?: TextChange; error?: string }
  | { type: "convert"; id: number; version: number; text?: string; error?: string; lostComments?: number };
