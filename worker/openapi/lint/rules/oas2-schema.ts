/** @module oas2-schema: the document's structure conforms to the OpenAPI JSON Schema of its version. */

import { defineDocumentRule, OAS2 } from "../define";
import { validateStructure } from "../schema/structure";

export const oas2Schema = defineDocumentRule({
  id: "oas2-schema",
  scope: "document",
  severity: "error",
  description: "Validate structure of OpenAPI v2 specification.",
  formats: OAS2,
  create: () => ({
    Root: {
      enter(root, ctx) {
        for (const finding of validateStructure(root, ctx.version, ctx.store)) ctx.report(finding.message, finding.path);
      },
    },
  }),
});
