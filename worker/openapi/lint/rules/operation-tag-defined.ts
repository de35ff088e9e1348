/** @module operation-tag-defined: every tag an operation uses is declared in the root `tags`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const operationTagDefined = defineDocumentRule({
  id: "operation-tag-defined",
  scope: "document",
  unit: true,
  severity: "warning",
  description: "Operation tags must be defined in global tags.",
  formats: ALL_VERSIONS,
  create: () => {
    let declared: Set<unknown> = new Set();
    return {
      Root: {
        enter(root, ctx) {
          const tags = ctx.resolve(root.tags);
          const names = Array.isArray(tags) ? tags.map((t) => ctx.resolve(t)).filter(isObject).map((t) => t.name) : [];
          declared = new Set(names.filter((n) => typeof n === "string"));
        },
      },
      Operation(op, ctx) {
        if (!Array.isArray(op.tags)) return;
        op.tags.forEach((tag, i) => {
          if (!declared.has(tag)) ctx.report("Operation tags must be defined in global tags.", [...ctx.path, "tags", i]);
        });
      },
    };
  },
});
