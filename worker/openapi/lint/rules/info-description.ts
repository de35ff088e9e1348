/** @module info-description: the Info object must have a non-empty `description`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const infoDescription = defineDocumentRule({
  id: "info-description",
  scope: "document",
  severity: "warning",
  description: 'Info "description" must be present and non-empty string.',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const info = ctx.resolve(root.info);
        if (!isObject(info) || !info.description) ctx.report('Info "description" must be present and non-empty string.', ["info", "description"]);
      },
    },
  }),
});
