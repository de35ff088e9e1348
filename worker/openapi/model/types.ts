/**
 * @module The reference model: what the publish pipeline stores and the renderer reads.
 *
 * A published version is one {@link ReferenceHeader} plus one {@link OperationSlice} per operation, webhook
 * and callback. A slice as the renderer reads it is self-contained: every local `$ref` reachable from the operation
 * is in `refs`, keyed by its JSON pointer, so a page needs one slice (kilobytes) and never the whole document.
 * `$ref`s stay in place (the graph keeps shared nodes and cycles); resolve them with `refs`. In storage the
 * targets are kept once per model, not per slice (store/models.ts), and put back into `refs` when read.
 */

/** Source format family as detected from the `swagger` / `openapi` field. */
export type SpecVersion = "2.0" | "3.0" | "3.1" | "3.2";

/** What kind of entry point an operation slice describes. */
export type OperationKind = "operation" | "webhook" | "callback";

/**
 * Bump when the stored shape changes: KV keys include it, so old slices are never misread. 3: `$ref` targets
 * stored once per model in target chunks, slices carry their locations (store/models.ts); 2: copies per slice.
 */
export const MODEL_VERSION = 3;

/** One operation, webhook operation or callback operation, as listed in indexes and D1. */
export interface OperationSummary {
  /** Unique within the version; from operationId, else method + path (see slug.ts). */
  slug: string;
  kind: OperationKind;
  /** Lower-case HTTP method, including 3.2 `query` and `additionalOperations` names as written. */
  method: string;
  /** The path template; for a webhook its name; for a callback its runtime expression. */
  path: string;
  operationId?: string;
  summary?: string;
  tags: string[];
  deprecated: boolean;
  /** For callbacks: the owning operation's slug and the callback's name. */
  parentSlug?: string;
  callbackName?: string;
}

/** Counts shown on the reference and returned by upload. */
export interface ReferenceCounts {
  /** Operations under `paths` (3.2 `query` and `additionalOperations` included). */
  operations: number;
  /** Entries of `components.schemas` after bundling (Swagger 2.0 `definitions` after upgrade). */
  schemas: number;
  securitySchemes: number;
  /** Operations under `webhooks` (3.1+). */
  webhooks: number;
  /** Operations inside callback objects, over all operations. */
  callbacks: number;
}

/** Tag as declared (3.2 adds `summary`, `parent` and `kind`). */
export interface TagInfo {
  name: string;
  summary?: string;
  description?: string;
  parent?: string;
  kind?: string;
  externalDocs?: { url?: string; description?: string };
}

/** Version-wide facts: small, read by every page of the version. */
export interface ReferenceHeader {
  modelVersion: number;
  /** The version detected in the uploaded source. */
  sourceVersion: SpecVersion;
  /** The `openapi` value after normalisation (2.0 is upgraded to 3.0.x). */
  openapi: string;
  /** The `info` object as written (title, version, description, contact, license, ...). */
  info: Record<string, unknown> & { title: string; version: string };
  /** Root servers (3.x `servers`; for 2.0, built from host + basePath + schemes by the upgrader). */
  servers: unknown[];
  tags: TagInfo[];
  /** `components.securitySchemes` with `$ref`s resolved. */
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Root `security` requirements, if any. */
  security?: Record<string, string[]>[];
  externalDocs?: { url?: string; description?: string };
  counts: ReferenceCounts;
}

/** Everything one operation page needs. */
export interface OperationSlice {
  modelVersion: number;
  summary: OperationSummary;
  /** The operation object of the normalised (3.x) document, `$ref`s kept. */
  operation: Record<string, unknown>;
  /** Parameters declared on the path item (the operation's own override them by name + in). */
  pathParameters: unknown[];
  /** Effective servers: operation's, else path item's, else root's. */
  servers: unknown[];
  /** Effective security: operation's `security` if present (even empty), else root's. */
  security: Record<string, string[]>[];
  /** Every local `$ref` target reachable from `operation` and `pathParameters`, by JSON pointer ("#/components/schemas/Pet"). */
  refs: Record<string, unknown>;
}

/** A problem found while building a reference (lint-shaped, so upload can return it in `lint`). */
export interface BuildIssue {
  severity: "error" | "warning" | "info" | "hint";
  rule: string;
  message: string;
  /** 1-based line in the file the issue is in, when known. */
  line?: number;
  column?: number;
  /** JSON pointer path segments into the document. */
  path: (string | number)[];
  /** For multi-file archives: the file the issue is in, when not the root. */
  file?: string;
}
