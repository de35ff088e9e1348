/**
 * @module path-params: path templates and path parameters agree. Every `{name}` in a path is declared (on the
 * path item or the operation), every declared path parameter is used, required and declared once, no template
 * repeats a name, and no two paths are the same template with different parameter names.
 */

import { ALL_VERSIONS, defineDocumentRule } from "../define";
import type { DocumentContext, Segment } from "../rule";
import { isObject } from "../util/is-object";

const TEMPLATE = /(\{;?\??[a-zA-Z0-9_-]+\*?\})/g;
const METHODS = ["get", "head", "post", "put", "patch", "delete", "options", "trace"];

type Found = Map<string, readonly Segment[]>;

export const pathParams = defineDocumentRule({
  id: "path-params",
  scope: "document",
  unit: true,
  severity: "error",
  description: "Path parameters must be defined and valid.",
  formats: ALL_VERSIONS,
  // Root: what compares paths (equivalent templates) or reads only the key; PathItem: one path item's
  // parameters, so that its problems are kept while the item is unchanged (`unit`).
  create: () => ({
    Root: {
      enter(root, ctx) {
        const paths = ctx.resolveAt(root.paths, ["paths"]);
        if (!isObject(paths.value)) return;
        const templates = new Map<string, string>();
        for (const path of Object.keys(paths.value)) {
          const item = ctx.resolveAt(paths.value[path], [...paths.path, path]);
          if (!isObject(item.value)) continue;
          const normalized = path.replace(TEMPLATE, "%");
          const first = templates.get(normalized);
          if (first !== undefined) ctx.report(`Paths "${first}" and "${path}" must not be equivalent.`, [...paths.path, path]);
          else templates.set(normalized, path);
          const expected: string[] = [];
          for (const name of templateNames(path)) {
            if (expected.includes(name)) ctx.report(`Path "${path}" must not use parameter "{${name}}" multiple times.`, [...paths.path, path]);
            else expected.push(name);
          }
        }
      },
    },
    PathItem(item, ctx) {
      const path = String(ctx.key);
      const expected = [...new Set(templateNames(path))];
      const top = declared(ctx, item.parameters, [...ctx.path, "parameters"]);
      for (const method of Object.keys(item)) {
        if (!METHODS.includes(method) && !(method === "query" && ctx.version === "3.2")) continue;
        const op = ctx.resolveAt(item[method], [...ctx.path, method]);
        if (!isObject(op.value)) continue;
        const own = declared(ctx, op.value.parameters, [...op.path, "parameters"]);
        const all: Found = new Map([...top, ...own]);
        for (const [name, at] of all) {
          if (!expected.includes(name)) ctx.report(`Parameter "${name}" must be used in path "${path}".`, at);
        }
        for (const name of expected) {
          if (!all.has(name)) ctx.report(`Operation must define parameter "{${name}}" as expected by path "${path}".`, op.path);
        }
      }
    },
  }),
});

/** The parameter names of a path template, in order, repeats included. */
function templateNames(path: string): string[] {
  return (path.match(TEMPLATE) ?? []).map((match) => match.replace(/[{}?*;]/g, ""));
}

/** Named path parameters of a list, reporting non-required and repeated ones. */
function declared(ctx: DocumentContext, list: unknown, path: readonly Segment[]): Found {
  const found: Found = new Map();
  const params = ctx.resolveAt(list, path);
  if (!Array.isArray(params.value)) return found;
  params.value.forEach((p, i) => {
    const param = ctx.resolveAt(p, [...params.path, i]);
    const v = param.value;
    if (!isObject(v) || v.in !== "path" || v.name === undefined) return;
    const name = String(v.name);
    if (v.required !== true) ctx.report(`Path parameter "${name}" must have "required" property that is set to "true".`, param.path);
    if (found.has(name)) ctx.report(`Path parameter "${name}" must not be defined multiple times.`, param.path);
    else found.set(name, param.path);
  });
  return found;
}
