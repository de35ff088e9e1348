/** @module path-keys-no-trailing-slash: Path must not end with slash. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const pathKeysNoTrailingSlash = defineDocumentRule({
  id: "path-keys-no-trailing-slash",
  scope: "document",
  severity: "warning",
  description: 'Path must not end with slash.',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const paths = ctx.resolveAt(root.paths, ["paths"]);
        if (!isObject(paths.value)) return;
        for (const key of Object.keys(paths.value)) {
          if (/.+\/$/.test(key)) ctx.report('Path must not end with slash.', [...paths.path, key]);
        }
      },
    },
  }),
});
