/** @module no-$ref-siblings (2.0, 3.0): a `$ref` object has no other properties; they would be ignored. */

import { defineNodeRule } from "../define";

export const noRefSiblings = defineNodeRule({
  id: "no-$ref-siblings",
  scope: "node",
  severity: "error",
  resolved: false,
  description: "Property must not be placed among $ref",
  formats: ["2.0", "3.0"],
  create: () => ({
    keys: ["$ref"],
    object(node, ctx) {
      if (!("$ref" in node)) return;
      for (const key of Object.keys(node)) {
        if (key !== "$ref") ctx.report("$ref must not be placed next to any other properties", [key]);
      }
    },
  }),
});
