/** @module Local `$ref` resolution with locations, for both sides of a diff. Remote and file refs are never fetched. */

import { DIFF_BUDGET } from "../budgets";
import { isObject, parseRef, resolvePointer } from "../model/pointer";
import type { PathSegment } from "../model/pointer";

/** A node of a document and where it is written (after following `$ref`s). */
export interface Located {
  node: Record<string, unknown>;
  at: PathSegment[];
  /** The name of the last `components/<section>/<name>` the chain went through, if any. */
  name?: string;
  /** True when fields beside a `$ref` were merged into a new object (so `node` is not the document's). */
  merged?: boolean;
}

const ANNOTATIONS = new Set(["description", "summary", "title", "example", "examples", "$comment"]);

/**
 * Follows a local `$ref` chain from `value` (written at `at`), at most {@link DIFF_BUDGET.maxRefHops} hops. Fields
 * beside a `$ref` override the target's (3.1 Reference Object siblings). Returns undefined when the result is not
 * an object (an unresolvable or remote ref, a non-object value).
 */
export function resolveAt(document: unknown, value: unknown, at: PathSegment[]): Located | undefined {
  let current = value;
  let where = at;
  let name: string | undefined;
  let siblings: Record<string, unknown> | undefined;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops >= DIFF_BUDGET.maxRefHops) return undefined;
    const { $ref, ...rest } = current;
    // Annotations beside a $ref (description, summary...) change nothing compared: follow the target itself.
    if (Object.keys(rest).some((k) => !ANNOTATIONS.has(k))) siblings = { ...rest, ...siblings };
    const parsed = parseRef($ref as string);
    if (parsed.kind !== "local") return undefined;
    const target = resolvePointer(document, parsed.segments);
    if (!target.found) return undefined;
    current = target.value;
    where = parsed.segments;
    if (parsed.segments.length === 3 && parsed.segments[0] === "components") name = parsed.segments[2];
  }
  if (!isObject(current)) return undefined;
  return { node: siblings ? { ...current, ...siblings } : current, at: where, ...(name !== undefined ? { name } : {}), ...(siblings ? { merged: true } : {}) };
}
