/** @module operation-operationId: every operation has an `operationId`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

const MESSAGE = 'Operation must have "operationId".';

export const operationOperationId = defineDocumentRule({
  id: "operation-operationId",
  scope: "document",
  unit: true,
  severity: "warning",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      if (!op.operationId) ctx.report(MESSAGE, [...ctx.path, "operationId"]);
    },
  }),
});
