/**
 * @module pattern-not-checked (Portico's own, info): a `pattern` or `patternProperties` key that example validation
 * cannot run, because the linear-time matcher does not support it (backreferences, lookarounds) or it exceeds the
 * pattern budget. Examples are then not checked against it; Spectral would run it on a backtracking engine.
 */

import { ALL_VERSIONS, defineNodeRule } from "../define";
import { isObject } from "../util/is-object";
import { compilePattern } from "../util/linear-pattern";

export const patternNotChecked = defineNodeRule({
  id: "pattern-not-checked",
  scope: "node",
  severity: "info",
  resolved: false,
  description: "Patterns examples are checked against must run on the linear-time matcher.",
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["pattern", "patternProperties"],
    object(node, ctx) {
      if (typeof node.pattern === "string") {
        const compiled = compilePattern(node.pattern);
        if (!compiled.ok) ctx.report(compiled.note, ["pattern"]);
      }
      if (isObject(node.patternProperties)) {
        for (const key of Object.keys(node.patternProperties)) {
          const compiled = compilePattern(key);
          if (!compiled.ok) ctx.report(compiled.note, ["patternProperties", key]);
        }
      }
    },
  }),
});
