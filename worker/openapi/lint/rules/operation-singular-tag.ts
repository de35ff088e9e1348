/** @module operation-singular-tag (off by default): an operation has at most one tag. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = "Operation must not have more than a single tag.";

export const operationSingularTag = defineDocumentRule({
  id: "operation-singular-tag",
  scope: "document",
  unit: true,
  severity: "off",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      const tags = op.tags;
      const length = Array.isArray(tags) || typeof tags === "string" ? tags.length : isObject(tags) ? Object.keys(tags).length : typeof tags === "number" ? tags : 0;
      if (length > 1) ctx.report(MESSAGE, [...ctx.path, "tags"]);
    },
  }),
});
