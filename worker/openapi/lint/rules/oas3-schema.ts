/** @module oas3-schema: the document's structure conforms to the OpenAPI JSON Schema of its version. */

import { defineDocumentRule, OAS3 } from "../define";
import { validateStructure } from "../schema/structure";

export const oas3Schema = defineDocumentRule({
  id: "oas3-schema",
  scope: "document",
  severity: "error",
  description: "Validate structure of OpenAPI v3 specification.",
  formats: OAS3,
  create: () => ({
    Root: {
      enter(root, ctx) {
        for (const finding of validateStructure(root, ctx.version, ctx.store)) ctx.report(finding.message, finding.path);
      },
    },
  }),
});
