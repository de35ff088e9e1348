/** @module oas3-callbacks-in-callbacks: an operation inside a callback does not define callbacks of its own. */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";

export const oas3CallbacksInCallbacks = defineDocumentRule({
  id: "oas3-callbacks-in-callbacks",
  scope: "document",
  unit: true,
  severity: "warning",
  description: "Callbacks should not be defined within a callback",
  formats: OAS3,
  create: () => ({
    Operation(op, ctx) {
      // `#OperationObject.callbacks[*][*][*].callbacks`: callback → expression (path item) → any field.
      const callbacks = ctx.resolveAt(op.callbacks, [...ctx.path, "callbacks"]);
      if (!isObject(callbacks.value)) return;
      for (const name of Object.keys(callbacks.value)) {
        const callback = ctx.resolveAt(callbacks.value[name], [...callbacks.path, name]);
        if (!isObject(callback.value)) continue;
        for (const expression of Object.keys(callback.value)) {
          const item = ctx.resolveAt(callback.value[expression], [...callback.path, expression]);
          if (!isObject(item.value)) continue;
          for (const field of Object.keys(item.value)) {
            const inner = ctx.resolveAt(item.value[field], [...item.path, field]);
            if (isObject(inner.value) && inner.value.callbacks !== undefined) {
              ctx.report("Callbacks should not be defined within a callback", [...inner.path, "callbacks"]);
            }
          }
        }
      }
    },
  }),
});
