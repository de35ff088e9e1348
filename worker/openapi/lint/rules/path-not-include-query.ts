/** @module path-not-include-query: Path must not include query string. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const pathNotIncludeQuery = defineDocumentRule({
  id: "path-not-include-query",
  scope: "document",
  severity: "warning",
  description: 'Path must not include query string.',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const paths = ctx.resolveAt(root.paths, ["paths"]);
        if (!isObject(paths.value)) return;
        for (const key of Object.keys(paths.value)) {
          if (key.includes("?")) ctx.report('Path must not include query string.', [...paths.path, key]);
        }
      },
    },
  }),
});
