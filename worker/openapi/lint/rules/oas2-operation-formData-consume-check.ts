/** @module oas2-operation-formData-consume-check: `in: formData` parameters need a form media type in `consumes`. */

import { defineDocumentRule, OAS2 } from "../define";
import { isObject } from "../util/is-object";

const FORM = /(application\/x-www-form-urlencoded|multipart\/form-data)/;

export const oas2OperationFormDataConsumeCheck = defineDocumentRule({
  id: "oas2-operation-formData-consume-check",
  scope: "document",
  unit: true,
  severity: "warning",
  description: 'Operations with "in: formData" parameter must include "application/x-www-form-urlencoded" or "multipart/form-data" in their "consumes" property.',
  formats: OAS2,
  create: () => ({
    Operation(op, ctx) {
      const { parameters, consumes } = op;
      if (!Array.isArray(parameters) || !Array.isArray(consumes)) return;
      const formData = parameters.some((p) => {
        const param = ctx.resolve(p);
        return isObject(param) && param.in === "formData";
      });
      if (formData && !FORM.test(consumes.join(","))) {
        ctx.report(
          'Operations with "in: formData" parameter must include "application/x-www-form-urlencoded" or "multipart/form-data" in their "consumes" property.',
        );
      }
    },
  }),
});
