/**
 * @module The operations of a normalised document, keyed for matching: method + path template with parameter
 * names blanked (`/pets/{id}` and `/pets/{petId}` are the same path). HTTP methods, 3.2 `query` and
 * `additionalOperations`, and (3.1+) webhooks.
 */

import { isObject } from "../model/pointer";
import type { PathSegment } from "../model/pointer";
import { resolveAt } from "./resolve";
import type { ChangeOperation } from "./types";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One operation of a document. */
export interface OperationEntry {
  change: ChangeOperation;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
  /** Where the operation is written. */
  at: PathSegment[];
  /** Where its path item is written (`paths/<path>`). */
  pathAt: PathSegment[];
  /** The path key (template with names blanked) this operation belongs to. */
  pathKey: string;
  webhook: boolean;
}

/** `/pets/{petId}` → `/pets/{}`. */
export function pathKey(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}");
}

/** Every operation by `METHOD pathKey` (webhooks: `WEBHOOK METHOD name`). */
export function listOperations(document: Record<string, unknown>): Map<string, OperationEntry> {
  const out = new Map<string, OperationEntry>();
  const version = typeof document.openapi === "string" ? document.openapi : "";
  const v32 = /^3\.[2-9]/.test(version);
  const visit = (container: unknown, root: "paths" | "webhooks") => {
    if (!isObject(container)) return;
    for (const [path, raw] of Object.entries(container)) {
      if (path.startsWith("x-")) continue;
      const located = resolveAt(document, raw, [root, path]);
      if (!located) continue;
      const item = located.node;
      const entries: [string, unknown, PathSegment[]][] = HTTP_METHODS.map((m) => [m, item[m], [root, path, m]]);
      if (v32) {
        entries.push(["query", item.query, [root, path, "query"]]);
        if (isObject(item.additionalOperations)) for (const [m, op] of Object.entries(item.additionalOperations)) entries.push([m, op, [root, path, "additionalOperations", m]]);
      }
      for (const [method, op, at] of entries) {
        if (!isObject(op)) continue;
        const upper = method.toUpperCase();
        const key = root === "webhooks" ? `WEBHOOK ${upper} ${path}` : `${upper} ${pathKey(path)}`;
        if (out.has(key)) continue;
        const change: ChangeOperation = { method: upper, path };
        if (typeof op.operationId === "string") change.operationId = op.operationId;
        out.set(key, { change, operation: op, pathItem: item, at, pathAt: [root, path], pathKey: root === "webhooks" ? `WEBHOOK ${path}` : pathKey(path), webhook: root === "webhooks" });
      }
    }
  };
  visit(document.paths, "paths");
  visit(document.webhooks, "webhooks");
  return out;
}
