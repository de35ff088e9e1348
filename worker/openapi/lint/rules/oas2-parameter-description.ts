/** @module oas2-parameter-description (off by default): every 2.0 parameter has a `description`. */

import { defineNodeRule, OAS2 } from "../define";

const MESSAGE = 'Parameter objects must have "description".';

export const oas2ParameterDescription = defineNodeRule({
  id: "oas2-parameter-description",
  scope: "node",
  severity: "off",
  description: MESSAGE,
  formats: OAS2,
  create: () => ({
    keys: ["in"],
    object(node, ctx) {
      // `$..parameters[?(@ && @.in)]`: members of any `parameters` list or map.
      if (ctx.keyAt(1) === "parameters" && node.in && !node.description) ctx.report(MESSAGE, ["description"]);
    },
  }),
});
