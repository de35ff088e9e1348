/** @module oas2-unused-definition: every entry of `definitions` is the target of some `$ref`. */

import { defineDocumentRule, OAS2 } from "../define";
import { isObject } from "../util/is-object";
import { toPointer } from "../util/pointer";
import { referencedSet } from "../util/referenced-set";

export const oas2UnusedDefinition = defineDocumentRule({
  id: "oas2-unused-definition",
  scope: "document",
  severity: "warning",
  description: "Potentially unused definition has been detected.",
  formats: OAS2,
  create: () => ({
    Root: {
      leave(root, ctx) {
        if (!isObject(root.definitions)) return;
        const used = referencedSet(ctx.referencedPointers());
        for (const name of Object.keys(root.definitions)) {
          if (!used.has(toPointer(["definitions", name]))) ctx.report("Potentially unused definition has been detected.", ["definitions", name]);
        }
      },
    },
  }),
});
