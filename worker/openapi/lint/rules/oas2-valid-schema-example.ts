/** @module oas2-valid-schema-example: a 2.0 schema's (or parameter's) `example`, `x-example` and `default` are valid. */

import { defineNodeRule, OAS2 } from "../define";
import { validateExample } from "../examples/validate-example";
import { WalkFlag } from "../rule";

export const oas2ValidSchemaExample = defineNodeRule({
  id: "oas2-valid-schema-example",
  scope: "node",
  severity: "error",
  description: "Examples must be valid against their defined schema.",
  formats: OAS2,
  create: () => ({
    keys: ["example", "x-example", "default"],
    object(node, ctx) {
      // `$..definitions..`, `$..parameters..`, `$..responses..` objects that look like schemas.
      if (!(ctx.has(WalkFlag.Definitions) || ctx.has(WalkFlag.Parameters) || ctx.has(WalkFlag.Responses))) return;
      if (ctx.keyAt(0) === "properties") return;
      if (node.example === undefined && node["x-example"] === undefined && node.default === undefined) return;
      if (!(node.enum || node.type || node.format || node.$ref || node.properties || node.items)) return;
      for (const field of ["example", "x-example", "default"]) {
        if (!(field in node)) continue;
        for (const f of validateExample(node[field], node, [...ctx.path, field], "schema", ctx)) ctx.reportAt(f.message, f.path);
      }
    },
  }),
});
