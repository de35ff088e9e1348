/** @module operation-tags: every operation has a non-empty `tags` array. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

const MESSAGE = 'Operation must have non-empty "tags" array.';

export const operationTags = defineDocumentRule({
  id: "operation-tags",
  scope: "document",
  unit: true,
  severity: "warning",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      if (!Array.isArray(op.tags) || op.tags.length === 0) ctx.report(MESSAGE, [...ctx.path, "tags"]);
    },
  }),
});
