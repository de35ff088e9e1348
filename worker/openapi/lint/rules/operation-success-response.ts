/** @module operation-success-response: every operation defines at least one 2xx or 3xx response. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const operationSuccessResponse = defineDocumentRule({
  id: "operation-success-response",
  scope: "document",
  unit: true,
  severity: "warning",
  description: 'Operation must have at least one "2xx" or "3xx" response.',
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      const responses = ctx.resolve(op.responses);
      if (!isObject(responses)) return;
      for (const code of Object.keys(responses)) {
        if (ctx.version !== "2.0" && (code === "2XX" || code === "3XX")) return;
        if (Number(code) >= 200 && Number(code) < 400) return;
      }
      ctx.report('Operation must have at least one "2xx" or "3xx" response.', [...ctx.path, "responses"]);
    },
  }),
});
