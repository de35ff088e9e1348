/** @module oas2-operation-security-defined: security requirements name schemes (and scopes) of `securityDefinitions`. */

import { defineDocumentRule, OAS2 } from "../define";
import { checkSecurityRequirement } from "../util/security-requirement";

export const oas2OperationSecurityDefined = defineDocumentRule({
  id: "oas2-operation-security-defined",
  scope: "document",
  unit: true,
  severity: "warning",
  description: 'Operation "security" values must match a scheme defined in the "securityDefinitions" object.',
  formats: OAS2,
  create: () => ({
    SecurityRequirement: (requirement, ctx) => checkSecurityRequirement(requirement, ctx, 2),
  }),
});
