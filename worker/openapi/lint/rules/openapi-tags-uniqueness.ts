/** @module openapi-tags-uniqueness: no two root tags share a name. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const openapiTagsUniqueness = defineDocumentRule({
  id: "openapi-tags-uniqueness",
  scope: "document",
  severity: "error",
  description: "Each tag must have a unique name.",
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const tags = ctx.resolveAt(root.tags, ["tags"]);
        if (!Array.isArray(tags.value)) return;
        const list = tags.value.map((t) => ctx.resolve(t));
        // Spectral checks nothing unless every tag is an object with a string name.
        if (!list.every((t) => isObject(t) && typeof t.name === "string")) return;
        const names = list.map((t) => (t as { name: string }).name);
        names.forEach((name, i) => {
          if (names.indexOf(name) !== i) ctx.report(`"tags" object contains duplicate tag name "${name}".`, [...tags.path, i, "name"]);
        });
      },
    },
  }),
});
