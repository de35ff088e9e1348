/** @module oas2-oneOf: `oneOf` does not exist in Swagger 2.0 (it came with OpenAPI 3). */

import { defineNodeRule, OAS2 } from "../define";

export const oas2OneOf = defineNodeRule({
  id: "oas2-oneOf",
  scope: "node",
  severity: "warning",
  description: "oneOf is not available in OpenAPI v2, it was added in OpenAPI v3",
  formats: OAS2,
  create: () => ({
    keys: ["oneOf"],
    object(node, ctx) {
      if (node.oneOf !== undefined) ctx.report('"oneOf" keyword must not be used in OpenAPI v2 document.', ["oneOf"]);
    },
  }),
});
