/**
 * @module Check family: paths, operations and webhooks removed or added. A removal is INFO when the operation was
 * deprecated and its `x-sunset` date (if any) has passed, ERR before the sunset or without deprecation.
 */

import { sunsetOf, type DiffCheck } from "../check";
import type { DiffContext } from "../context";
import type { OperationEntry } from "../operations";

type Removal = "without-deprecation" | "with-deprecation" | "before-sunset" | "sunset-parse";

function removal(ctx: DiffContext, op: OperationEntry): Removal {
  if (op.operation.deprecated !== true) return "without-deprecation";
  const sunset = sunsetOf(op.operation);
  if (sunset !== undefined && Number.isNaN(sunset)) return "sunset-parse";
  return sunset !== undefined && sunset > ctx.now ? "before-sunset" : "with-deprecation";
}

/** The id of a removal: unreadable sunsets are oasdiff's `api-path-sunset-parse` for paths and operations alike. */
const removalId = (scope: "api" | "api-path", kind: Removal) => (kind === "sunset-parse" ? "api-path-sunset-parse" : `${scope}-removed-${kind}`);

export const endpointsCheck: DiffCheck = {
  name: "paths and operations",
  run(ctx) {
    const revPaths = new Set([...ctx.revOperations.values()].map((o) => o.pathKey));
    const basePaths = new Set([...ctx.baseOperations.values()].map((o) => o.pathKey));
    const removedPaths = new Map<string, OperationEntry[]>();
    for (const [key, op] of ctx.baseOperations) {
      if (ctx.revOperations.has(key)) continue;
      const where = { operation: op.change, base: op.at };
      if (op.webhook) ctx.emit("webhook-removed", `webhook ${op.change.method} ${op.change.path} removed`, where);
      else if (!revPaths.has(op.pathKey)) removedPaths.set(op.pathKey, [...(removedPaths.get(op.pathKey) ?? []), op]);
      else ctx.emit(removalId("api", removal(ctx, op)), `${op.change.method} ${op.change.path} removed${op.operation.deprecated === true ? " (it was deprecated)" : ""}`, where);
    }
    for (const ops of removedPaths.values()) {
      const kinds = ops.map((op) => removal(ctx, op));
      const kind: Removal = kinds.includes("without-deprecation") ? "without-deprecation" : kinds.includes("sunset-parse") ? "sunset-parse" : kinds.includes("before-sunset") ? "before-sunset" : "with-deprecation";
      for (const op of ops) ctx.emit(removalId("api-path", kind), `path ${op.change.path} removed, and with it ${op.change.method} ${op.change.path}`, { operation: op.change, base: op.at });
    }
    for (const [key, op] of ctx.revOperations) {
      if (ctx.baseOperations.has(key)) continue;
      const where = { operation: op.change, revision: op.at };
      if (op.webhook) ctx.emit("webhook-added", `webhook ${op.change.method} ${op.change.path} added`, where);
      else ctx.emit("endpoint-added", `${op.change.method} ${op.change.path} added${basePaths.has(op.pathKey) ? "" : " (new path)"}`, where);
    }
  },
};
