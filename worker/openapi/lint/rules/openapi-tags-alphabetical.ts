/** @module openapi-tags-alphabetical (off by default): root tags are sorted by name. */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = 'OpenAPI object must have alphabetical "tags".';

/** Spectral's `alphabetical` comparison: numbers numerically, strings with localeCompare. */
function compare(a: unknown, b: unknown): number {
  if ((typeof a === "number" || Number.isNaN(Number(a))) && (typeof b === "number" || !Number.isNaN(Number(b)))) {
    return Math.min(1, Math.max(-1, Number(a) - Number(b)));
  }
  if (typeof a !== "string" || typeof b !== "string") return 0;
  return a.localeCompare(b);
}

export const openapiTagsAlphabetical = defineDocumentRule({
  id: "openapi-tags-alphabetical",
  scope: "document",
  severity: "off",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const tags = ctx.resolve(root.tags);
        if (!Array.isArray(tags) || tags.length < 2) return;
        const names: unknown[] = [];
        for (const t of tags) {
          const tag = ctx.resolve(t);
          if (!isObject(tag)) return ctx.report(MESSAGE, ["tags"]);
          names.push(tag.name);
        }
        if (!names.every((n) => typeof n === "string" || typeof n === "number")) return ctx.report(MESSAGE, ["tags"]);
        for (let i = 0; i < names.length - 1; i++) {
          if (compare(names[i], names[i + 1]) >= 1) return ctx.report(MESSAGE, ["tags"]);
        }
      },
    },
  }),
});
