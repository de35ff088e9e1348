/** @module Path Item / Callback resolution: follows local `$ref`s (3.1 `components/pathItems`, bundled refs). */

import { isObject, parseRef, resolvePointer } from "./pointer";

const MAX_REF_HOPS = 16;

/**
 * The effective object at `value`: a local `$ref` chain is followed, and fields written beside a `$ref` override
 * the target's. An unresolvable ref leaves only the siblings (the document-wide ref check reports it).
 * Returns undefined when the result is not an object.
 */
export function resolveObjectRef(document: unknown, value: unknown): Record<string, unknown> | undefined {
  let current = value;
  const layers: Record<string, unknown>[] = [];
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    const { $ref, ...siblings } = current;
    layers.push(siblings);
    const parsed = parseRef($ref as string);
    const target = parsed.kind === "local" && hops < MAX_REF_HOPS ? resolvePointer(document, parsed.segments) : undefined;
    current = target?.found ? target.value : {};
    if (!target?.found) break;
  }
  if (!isObject(current)) return undefined;
  return layers.length ? Object.assign({}, current, ...layers.reverse()) : current;
}
