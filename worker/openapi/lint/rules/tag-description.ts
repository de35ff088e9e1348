/** @module tag-description (off by default): every root tag has a `description`. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = 'Tag object must have "description".';

export const tagDescription = defineDocumentRule({
  id: "tag-description",
  scope: "document",
  severity: "off",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const tags = ctx.resolveAt(root.tags, ["tags"]);
        if (!Array.isArray(tags.value)) return;
        tags.value.forEach((t, i) => {
          const tag = ctx.resolveAt(t, [...tags.path, i]);
          if (!isObject(tag.value) || !tag.value.description) ctx.report(MESSAGE, [...tag.path, "description"]);
        });
      },
    },
  }),
});
