/** @module array-items: a schema of `type: array` (3.1+: a type list including "array") has `items`. */

import { ALL_VERSIONS, defineNodeRule } from "../define";

const MESSAGE = 'Schemas with "type: array", require a sibling "items" field';

export const arrayItems = defineNodeRule({
  id: "array-items",
  scope: "node",
  severity: "error",
  resolved: false,
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    object(node, ctx) {
      const { type } = node;
      const isArray = type === "array" || (ctx.version !== "2.0" && ctx.version !== "3.0" && Array.isArray(type) && type.includes("array"));
      if (isArray && !node.items) ctx.report(MESSAGE, ["items"]);
    },
  }),
});
