/** @module oas3-examples-value-or-externalValue: an Example object has exactly one of `value` and `externalValue`. */

import { defineNodeRule, OAS3 } from "../define";
import { WalkFlag, type NodeContext } from "../rule";

const MESSAGE = 'Examples must have either "value" or "externalValue" field.';

/** Spectral's six `given` paths, on the logical (resolved) path. */
function isExample(ctx: NodeContext): boolean {
  if (ctx.keyAt(1) !== "examples") return false;
  const owner = ctx.keyAt(3);
  if (ctx.depth === 3) return ctx.keyAt(2) === "components"; // $.components.examples[*]
  if (ctx.depth === 5 && ctx.keyAt(4) === "components") return owner === "parameters" || owner === "headers";
  // `$.paths[*][*]..content[*].examples[*]` (and parameters, headers): the owner key sits below the operation.
  return ctx.depth >= 7 && ctx.has(WalkFlag.PathsOperation) && (owner === "content" || owner === "parameters" || owner === "headers");
}

export const oas3ExamplesValueOrExternalValue = defineNodeRule({
  id: "oas3-examples-value-or-externalValue",
  scope: "node",
  severity: "warning",
  description: MESSAGE,
  formats: OAS3,
  create: () => ({
    object(node, ctx) {
      if (!isExample(ctx)) return;
      const count = ("value" in node ? 1 : 0) + ("externalValue" in node ? 1 : 0);
      // 3.2 adds dataValue and serializedValue as other ways to give the example (Spectral 1.23 predates them).
      if (ctx.version === "3.2" && count === 0 && ("dataValue" in node || "serializedValue" in node)) return;
      if (count !== 1) ctx.report(MESSAGE);
    },
  }),
});
