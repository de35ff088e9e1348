/**
 * @module Corrections on top of `@scalar/openapi-upgrader` output. It rewrites a `$ref` to a Swagger 2.0 body or
 * formData parameter (`#/parameters/X`) to `#/components/requestBodies/X` but leaves it inside `parameters`,
 * where it means nothing; here such refs become the operation's `requestBody` (several formData ones are merged
 * into one form body, as Swagger 2.0 meant).
 */

import { isObject, parseRef, resolvePointer } from "../model/pointer";

const REQUEST_BODY_REF = "#/components/requestBodies/";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"];

/** Moves requestBody refs out of path-level and operation-level `parameters` (mutates `document`). */
export function moveRequestBodyRefs(document: Record<string, unknown>): void {
  if (!isObject(document.paths)) return;
  for (const item of Object.values(document.paths)) {
    if (!isObject(item)) continue;
    const shared = takeBodyRefs(item);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const own = takeBodyRefs(op);
      const refs = own.length ? own : shared;
      if (!refs.length) continue;
      const bodies = [...(isObject(op.requestBody) ? [op.requestBody] : []), ...refs.map((r) => ({ $ref: r }))];
      op.requestBody = bodies.length === 1 ? bodies[0] : mergeBodies(document, bodies);
    }
  }
}

function takeBodyRefs(holder: Record<string, unknown>): string[] {
  if (!Array.isArray(holder.parameters)) return [];
  const refs: string[] = [];
  holder.parameters = holder.parameters.filter((p) => {
    const isBody = isObject(p) && typeof p.$ref === "string" && p.$ref.startsWith(REQUEST_BODY_REF);
    if (isBody) refs.push((p as { $ref: string }).$ref);
    return !isBody;
  });
  if ((holder.parameters as unknown[]).length === 0) delete holder.parameters;
  return refs;
}

/** One inline body whose media types carry the union of the form properties (and `required`) of all parts. */
function mergeBodies(document: Record<string, unknown>, bodies: Record<string, unknown>[]): Record<string, unknown> {
  const content: Record<string, { schema: { type: "object"; properties: Record<string, unknown>; required: string[] } }> = {};
  for (const body of bodies) {
    const resolved = typeof body.$ref === "string" ? resolveLocal(document, body.$ref) : body;
    if (!isObject(resolved) || !isObject(resolved.content)) continue;
    for (const [type, media] of Object.entries(resolved.content)) {
      const schema = isObject(media) && isObject(media.schema) ? media.schema : undefined;
      const target = (content[type] ??= { schema: { type: "object", properties: {}, required: [] } });
      if (isObject(schema?.properties)) Object.assign(target.schema.properties, schema.properties);
      if (Array.isArray(schema?.required)) target.schema.required.push(...schema.required.filter((r): r is string => typeof r === "string"));
    }
  }
  return { content };
}

function resolveLocal(document: unknown, ref: string): unknown {
  const parsed = parseRef(ref);
  return parsed.kind === "local" ? resolvePointer(document, parsed.segments).value : undefined;
}
