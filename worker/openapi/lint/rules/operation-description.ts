/** @module operation-description: every operation has a non-empty `description`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

const MESSAGE = 'Operation "description" must be present and non-empty string.';

export const operationDescription = defineDocumentRule({
  id: "operation-description",
  scope: "document",
  unit: true,
  severity: "warning",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      if (!op.description) ctx.report(MESSAGE, [...ctx.path, "description"]);
    },
  }),
});
