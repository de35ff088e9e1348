/** @module path-declarations-must-exist: Path parameter declarations must not be empty, ex."/given/{}" is invalid. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

export const pathDeclarationsMustExist = defineDocumentRule({
  id: "path-declarations-must-exist",
  scope: "document",
  severity: "warning",
  description: 'Path parameter declarations must not be empty, ex."/given/{}" is invalid.',
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const paths = ctx.resolveAt(root.paths, ["paths"]);
        if (!isObject(paths.value)) return;
        for (const key of Object.keys(paths.value)) {
          if (key.includes("{}")) ctx.report('Path parameter declarations must not be empty, ex."/given/{}" is invalid.', [...paths.path, key]);
        }
      },
    },
  }),
});
