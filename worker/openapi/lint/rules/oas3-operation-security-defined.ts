/** @module oas3-operation-security-defined: security requirements name schemes (and scopes) of `components.securitySchemes`. */

import { defineDocumentRule, OAS3 } from "../define";
import { checkSecurityRequirement } from "../util/security-requirement";

export const oas3OperationSecurityDefined = defineDocumentRule({
  id: "oas3-operation-security-defined",
  scope: "document",
  unit: true,
  severity: "warning",
  description: 'Operation "security" values must match a scheme defined in the "components.securitySchemes" object.',
  formats: OAS3,
  create: () => ({
    SecurityRequirement: (requirement, ctx) => checkSecurityRequirement(requirement, ctx, 3),
  }),
});
