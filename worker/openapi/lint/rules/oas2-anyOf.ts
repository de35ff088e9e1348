/** @module oas2-anyOf: `anyOf` does not exist in Swagger 2.0 (it came with OpenAPI 3). */

import { defineNodeRule, OAS2 } from "../define";

export const oas2AnyOf = defineNodeRule({
  id: "oas2-anyOf",
  scope: "node",
  severity: "warning",
  description: "anyOf is not available in OpenAPI v2, it was added in OpenAPI v3",
  formats: OAS2,
  create: () => ({
    keys: ["anyOf"],
    object(node, ctx) {
      if (node.anyOf !== undefined) ctx.report('"anyOf" keyword must not be used in OpenAPI v2 document.', ["anyOf"]);
    },
  }),
});
