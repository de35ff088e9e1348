/**
 * @module array-items: a schema of `type: array` (3.1+: a type list including "array") has `items`. An error in
 * 2.0 and 3.0, whose specifications require `items`; a warning in 3.1 and 3.2, where JSON Schema 2020-12 makes
 * it optional (valid documents, such as the 3.2 specification's own examples, omit it).
 */

import { ALL_VERSIONS, defineNodeRule } from "../define";

const MESSAGE = 'Schemas with "type: array", require a sibling "items" field';

export const arrayItems = defineNodeRule({
  id: "array-items",
  scope: "node",
  severity: "error",
  severityFor: { "3.1": "warning", "3.2": "warning" },
  resolved: false,
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["type"],
    object(node, ctx) {
      const { type } = node;
      const isArray = type === "array" || (ctx.version !== "2.0" && ctx.version !== "3.0" && Array.isArray(type) && type.includes("array"));
      if (isArray && !node.items) ctx.report(MESSAGE, ["items"]);
    },
  }),
});
