/** @module Check family: operationId and tags of an operation. */

import type { DiffCheck } from "../check";

export const operationMetaCheck: DiffCheck = {
  name: "operationId and tags",
  run(ctx) {
    for (const { base, revision, operation } of ctx.pairs) {
      const bid = base.operation.operationId;
      const rid = revision.operation.operationId;
      if (bid !== rid) {
        const where = { operation, base: [...base.at, "operationId"], revision: [...revision.at, "operationId"] };
        if (typeof bid === "string") ctx.emit("api-operation-id-removed", `operationId ${bid} ${typeof rid === "string" ? `replaced by ${rid}` : "removed"}`, where);
        else if (typeof rid === "string") ctx.emit("api-operation-id-added", `operationId ${rid} added`, where);
      }
      const bt = Array.isArray(base.operation.tags) ? base.operation.tags.filter((t): t is string => typeof t === "string") : [];
      const rt = Array.isArray(revision.operation.tags) ? revision.operation.tags.filter((t): t is string => typeof t === "string") : [];
      const where = { operation, base: [...base.at, "tags"], revision: [...revision.at, "tags"] };
      for (const t of bt) if (!rt.includes(t)) ctx.emit("api-tag-removed", `tag ${t} removed`, where);
      for (const t of rt) if (!bt.includes(t)) ctx.emit("api-tag-added", `tag ${t} added`, where);
    }
  },
};
