/**
 * @module invalid-ref (not a `spectral:oas` rule: Spectral reports it from its resolver): a local `$ref` points
 * at something that exists. References to other files are not checked here.
 */

import { ALL_VERSIONS, defineNodeRule } from "../define";

export const invalidRef = defineNodeRule({
  id: "invalid-ref",
  scope: "node",
  severity: "error",
  resolved: false,
  description: "Local $ref targets must exist.",
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["$ref"],
    object(node, ctx) {
      const ref = node.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#")) return;
      const target = ctx.resolveAt(node, ctx.path);
      if (target.value === node) ctx.report(`'${ref}' does not exist`, ["$ref"]);
    },
  }),
});
