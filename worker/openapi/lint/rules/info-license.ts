/** @module info-license (off by default): the Info object must have a `license` object. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const infoLicense = defineDocumentRule({
  id: "info-license",
  scope: "document",
  severity: "off",
  description: 'Info object must have "license" object.',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const info = ctx.resolve(root.info);
        if (!isObject(info) || !info.license) ctx.report('Info object must have "license" object.', ["info", "license"]);
      },
    },
  }),
});
