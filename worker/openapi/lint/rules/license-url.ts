/** @module license-url (off by default): the License object must have a `url`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const licenseUrl = defineDocumentRule({
  id: "license-url",
  scope: "document",
  severity: "off",
  description: 'License object must include "url".',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const info = ctx.resolve(root.info);
        const license = isObject(info) ? ctx.resolve(info.license) : undefined;
        if (!isObject(license) || !license.url) ctx.report('License object must include "url".', ["info", "license", "url"]);
      },
    },
  }),
});
