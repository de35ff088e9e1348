/** @module operation-operationId-valid-in-url: an `operationId` uses only characters valid in a URL. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

const MESSAGE = "operationId must not contain characters that are invalid when used in URL.";
const URL_SAFE = /^[A-Za-z0-9-._~:/?#[\]@!$&'()*+,;=]*$/;

export const operationOperationIdValidInUrl = defineDocumentRule({
  id: "operation-operationId-valid-in-url",
  scope: "document",
  unit: true,
  severity: "warning",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      if (typeof op.operationId === "string" && !URL_SAFE.test(op.operationId)) ctx.report(MESSAGE, [...ctx.path, "operationId"]);
    },
  }),
});
