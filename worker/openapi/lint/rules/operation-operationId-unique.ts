/** @module operation-operationId-unique: no two operations share an `operationId`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

export const operationOperationIdUnique = defineDocumentRule({
  id: "operation-operationId-unique",
  scope: "document",
  severity: "error",
  description: 'Every operation must have unique "operationId".',
  formats: ALL_VERSIONS,
  create: () => {
    const seen: unknown[] = [];
    return {
      Operation(op, ctx) {
        if (!("operationId" in op)) return;
        // Spectral compares with Array.includes: any value type, SameValueZero.
        if (seen.includes(op.operationId)) ctx.report("operationId must be unique.", [...ctx.path, "operationId"]);
        else seen.push(op.operationId);
      },
    };
  },
});
