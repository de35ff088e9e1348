/** @module oas3-parameter-description (off by default): path item, operation and component parameters have a `description`. */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = 'Parameter objects must have "description".';

export const oas3ParameterDescription = defineDocumentRule({
  id: "oas3-parameter-description",
  scope: "document",
  unit: true,
  severity: "off",
  description: MESSAGE,
  formats: OAS3,
  create: () => ({
    Parameter(param, ctx) {
      if (isObject(param) && param.in && !param.description) ctx.report(MESSAGE, [...ctx.path, "description"]);
    },
  }),
});
