/** @module oas2-api-schemes: a Swagger 2.0 document declares a non-empty `schemes` array of strings. */

import { defineDocumentRule, OAS2 } from "../define";

const MESSAGE = 'OpenAPI host "schemes" must be present and non-empty array.';

export const oas2ApiSchemes = defineDocumentRule({
  id: "oas2-api-schemes",
  scope: "document",
  severity: "warning",
  description: MESSAGE,
  formats: OAS2,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const schemes = ctx.resolve(root.schemes);
        if (!Array.isArray(schemes) || schemes.length === 0) return ctx.report(MESSAGE, ["schemes"]);
        schemes.forEach((s, i) => {
          if (typeof s !== "string") ctx.report(MESSAGE, ["schemes", i]);
        });
      },
    },
  }),
});
