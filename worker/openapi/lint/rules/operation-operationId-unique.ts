/** @module operation-operationId-unique: no two operations share an `operationId`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

export const operationOperationIdUnique = defineDocumentRule({
  id: "operation-operationId-unique",
  scope: "document",
  severity: "error",
  description: 'Every operation must have unique "operationId".',
  formats: ALL_VERSIONS,
  create: () => {
    // A Set, not Array.includes (quadratic: 9,000 operations cost ~0.4 s); both compare with SameValueZero.
    const seen = new Set<unknown>();
    return {
      Operation(op, ctx) {
        if (!("operationId" in op)) return;
        // Spectral compares with Array.includes: any value type, SameValueZero (as Set does).
        if (seen.has(op.operationId)) ctx.report("operationId must be unique.", [...ctx.path, "operationId"]);
        else seen.add(op.operationId);
      },
    };
  },
});
