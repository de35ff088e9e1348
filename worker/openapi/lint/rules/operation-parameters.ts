/** @module operation-parameters: an operation's parameters are unique by `name` + `in`, with at most one body. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject, isRef } from "../util/is-object";

export const operationParameters = defineDocumentRule({
  id: "operation-parameters",
  scope: "document",
  unit: true,
  severity: "warning",
  description: "Operation parameters are unique and non-repeating.",
  formats: ALL_VERSIONS,
  create: () => ({
    Operation(op, ctx) {
      const list = ctx.resolveAt(op.parameters, [...ctx.path, "parameters"]);
      const params = list.value;
      if (!Array.isArray(params) || params.length < 2) return;
      const fingerprints = new Set<string>();
      const body: (readonly (string | number)[])[] = [];
      let formData = false;
      params.forEach((p, i) => {
        const param = ctx.resolveAt(p, [...list.path, i]);
        // Spectral skips references it could not resolve.
        if (!isObject(param.value) || isRef(param.value) || "$ref" in param.value) return;
        const fingerprint = `${String(param.value.in)}-${String(param.value.name)}`;
        if (fingerprints.has(fingerprint)) {
          ctx.report('A parameter in this operation already exposes the same combination of "name" and "in" values.', param.path);
        } else fingerprints.add(fingerprint);
        if (param.value.in === "body") body.push(param.path);
        if (param.value.in === "formData") formData = true;
      });
      if (body.length > 0 && formData) ctx.report('Operation must not have both "in:body" and "in:formData" parameters.', list.path);
      for (const path of body.slice(1)) ctx.report('Operation must not have more than a single instance of the "in:body" parameter.', path);
    },
  }),
});
