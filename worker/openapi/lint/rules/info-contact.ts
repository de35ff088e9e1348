/** @module info-contact: the Info object must have a `contact` object. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const infoContact = defineDocumentRule({
  id: "info-contact",
  scope: "document",
  severity: "warning",
  description: 'Info object must have "contact" object.',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const info = ctx.resolve(root.info);
        if (!isObject(info) || !info.contact) ctx.report('Info object must have "contact" object.', ["info", "contact"]);
      },
    },
  }),
});
