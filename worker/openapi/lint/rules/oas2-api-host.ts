/** @module oas2-api-host: a Swagger 2.0 document declares a non-empty `host`. */

import { defineDocumentRule, OAS2 } from "../define";

const MESSAGE = 'OpenAPI "host" must be present and non-empty string.';

export const oas2ApiHost = defineDocumentRule({
  id: "oas2-api-host",
  scope: "document",
  severity: "warning",
  description: MESSAGE,
  formats: OAS2,
  create: () => ({
    Root: {
      enter(root, ctx) {
        if (!root.host) ctx.report(MESSAGE, ["host"]);
      },
    },
  }),
});
