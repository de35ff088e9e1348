/** @module oas3-valid-schema-example: a schema's `example` and `default` are valid against the schema. */

import { defineNodeRule, OAS3 } from "../define";
import { validateExample } from "../examples/validate-example";
import { WalkFlag } from "../rule";


export const oas3ValidSchemaExample = defineNodeRule({
  id: "oas3-valid-schema-example",
  scope: "node",
  severity: "error",
  description: "Examples must be valid against their defined schema.",
  formats: OAS3,
  create: () => ({
    keys: ["example", "default"],
    object(node, ctx) {
      // `$.components.schemas..`, `$..content..`, `$..headers..`, `$..parameters..` objects that look like schemas.
      if (!(ctx.has(WalkFlag.ComponentSchemas) || ctx.has(WalkFlag.Content) || ctx.has(WalkFlag.Headers) || ctx.has(WalkFlag.Parameters))) return;
      if (ctx.keyAt(0) === "properties") return;
      if (node.example === undefined && node.default === undefined) return;
      if (!(node.enum || node.type || node.format || node.$ref || node.properties || node.items)) return;
      for (const field of ["example", "default"]) {
        if (!(field in node)) continue;
        for (const f of validateExample(node[field], node, [...ctx.path, field], "schema", ctx)) ctx.reportAt(f.message, f.path);
      }
    },
  }),
});
