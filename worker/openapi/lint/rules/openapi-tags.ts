/** @module openapi-tags (off by default): the root has a non-empty `tags` array. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";

const MESSAGE = 'OpenAPI object must have non-empty "tags" array.';

export const openapiTags = defineDocumentRule({
  id: "openapi-tags",
  scope: "document",
  severity: "off",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const tags = ctx.resolve(root.tags);
        if (!Array.isArray(tags) || tags.length === 0) ctx.report(MESSAGE, ["tags"]);
      },
    },
  }),
});
