/** @module oas2-discriminator: a 2.0 definition's `discriminator` names a property that is defined and required. */

import { defineDocumentRule, OAS2 } from "../define";
import { isObject } from "../util/is-object";

export const oas2Discriminator = defineDocumentRule({
  id: "oas2-discriminator",
  scope: "document",
  severity: "error",
  description: "discriminator property must be defined and required",
  formats: OAS2,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const definitions = ctx.resolveAt(root.definitions, ["definitions"]);
        if (!isObject(definitions.value)) return;
        for (const name of Object.keys(definitions.value)) {
          const def = ctx.resolveAt(definitions.value[name], [...definitions.path, name]);
          const schema = def.value;
          if (!isObject(schema) || typeof schema.discriminator !== "string") continue;
          const property = schema.discriminator;
          if (!isObject(schema.properties) || !Object.keys(schema.properties).includes(property)) {
            ctx.report("The discriminator property must be defined in this schema.", [...def.path, "properties"]);
          }
          if (!Array.isArray(schema.required) || !schema.required.includes(property)) {
            ctx.report("The discriminator property must be in the required property list.", [...def.path, "required"]);
          }
        }
      },
    },
  }),
});
