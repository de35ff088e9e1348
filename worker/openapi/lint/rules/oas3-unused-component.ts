/** @module oas3-unused-component: every reusable component is the target of some `$ref`. */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";
import { toPointer } from "../util/pointer";
import { referencedSet } from "../util/referenced-set";

// The component kinds Spectral checks (security schemes are used by name, not by $ref).
const KINDS = ["schemas", "responses", "parameters", "examples", "requestBodies", "headers", "links", "callbacks"];

export const oas3UnusedComponent = defineDocumentRule({
  id: "oas3-unused-component",
  scope: "document",
  severity: "warning",
  description: "Potentially unused component has been detected.",
  formats: OAS3,
  create: () => ({
    Root: {
      leave(root, ctx) {
        if (!isObject(root.components)) return;
        const used = referencedSet(ctx.referencedPointers());
        for (const kind of KINDS) {
          const map = root.components[kind];
          if (!isObject(map)) continue;
          for (const name of Object.keys(map)) {
            if (!used.has(toPointer(["components", kind, name]))) ctx.report("Potentially unused component has been detected.", ["components", kind, name]);
          }
        }
      },
    },
  }),
});
