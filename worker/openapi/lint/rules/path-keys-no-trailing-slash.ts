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
          if (endsWithSlash(key)) ctx.report('Path must not end with slash.', [...paths.path, key]);
        }
      },
    },
  }),
});

/**
 * Spectral's `/.+\/$/` without the regex (unanchored, it retries `.+` from every position: quadratic in the key,
 * and it runs on every path of every lint): a final `/` after a character that is not a line terminator.
 */
function endsWithSlash(key: string): boolean {
  if (key.length < 2 || key.charCodeAt(key.length - 1) !== 0x2f) return false;
  const before = key.charCodeAt(key.length - 2);
  return before !== 0x0a && before !== 0x0d && before !== 0x2028 && before !== 0x2029;
}
