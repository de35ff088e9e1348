/** @module contact-properties (off by default): the Contact object must have `name`, `url` and `email`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = 'Contact object must have "name", "url" and "email".';

export const contactProperties = defineDocumentRule({
  id: "contact-properties",
  scope: "document",
  severity: "off",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const info = ctx.resolve(root.info);
        if (!isObject(info) || !("contact" in info)) return;
        const contact = ctx.resolveAt(info.contact, ["info", "contact"]);
        const value = isObject(contact.value) ? contact.value : {};
        for (const field of ["name", "url", "email"]) {
          if (!value[field]) ctx.report(MESSAGE, [...contact.path, field]);
        }
      },
    },
  }),
});
