/** @module oas2-valid-media-example: a 2.0 response's `examples` (one per media type) are valid against its `schema`. */

import { defineNodeRule, OAS2 } from "../define";
import { validateExample } from "../examples/validate-example";
import { WalkFlag } from "../rule";
import { isObject } from "../util/is-object";

export const oas2ValidMediaExample = defineNodeRule({
  id: "oas2-valid-media-example",
  scope: "node",
  severity: "error",
  description: "Examples must be valid against their defined schema.",
  formats: OAS2,
  create: () => ({
    keys: ["schema"],
    object(node, ctx) {
      if (!ctx.has(WalkFlag.Responses) || !node.schema || !node.examples) return;
      const schema = ctx.resolve(node.schema);
      const examples = node.examples;
      if (!isObject(schema) || !isObject(examples)) return;
      const mode = ctx.has(WalkFlag.MediaResponse) ? "response" : "schema";
      for (const key of Object.keys(examples)) {
        for (const f of validateExample(examples[key], schema, [...ctx.path, "examples", key], mode, ctx)) ctx.reportAt(f.message, f.path);
      }
    },
  }),
});
