/** @module duplicated-entry-in-enum: no `enum` lists the same value twice. */

import { ALL_VERSIONS, defineNodeRule } from "../define";
import { deepEqual } from "../util/deep-equal";

export const duplicatedEntryInEnum = defineNodeRule({
  id: "duplicated-entry-in-enum",
  scope: "node",
  severity: "warning",
  description: "Enum values must not have duplicate entry.",
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["enum"],
    object(node, ctx) {
      const values = node.enum;
      // Spectral skips a `properties` map (whose property could be named "enum").
      if (!Array.isArray(values) || ctx.keyAt(0) === "properties") return;
      // As ajv's uniqueItems: the last value that repeats an earlier one, and the nearest earlier copy.
      for (let i = values.length - 1; i > 0; i--) {
        // Up to i comparisons: a 100,000-value enum is 5·10⁹ of them, which the run's work budget must see.
        ctx.spend(i);
        for (let j = i - 1; j >= 0; j--) {
          if (deepEqual(values[i], values[j])) {
            ctx.report(`"enum" property must not have duplicate items (items ## ${j} and ${i} are identical)`, ["enum"]);
            return;
          }
        }
      }
    },
  }),
});
