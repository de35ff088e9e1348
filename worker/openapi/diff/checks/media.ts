/**
 * @module The schemas of one media type on both sides: `schema`, and 3.2's `itemSchema` (each item of a sequential
 * stream such as application/jsonl or text/event-stream), compared in the direction of the body they belong to;
 * a schema (or itemSchema) appearing or disappearing has its own ids.
 */

import { isObject } from "../../model/pointer";
import type { PathSegment } from "../../model/pointer";
import type { DiffContext } from "../context";
import type { Direction } from "../schema/rel";
import type { ChangeOperation } from "../types";

/** Compares `schema` and `itemSchema` of a media type present on both sides. */
export function compareMedia(ctx: DiffContext, bm: unknown, rm: unknown, baseAt: PathSegment[], revAt: PathSegment[], direction: Direction, label: string, operation: ChangeOperation): void {
  if (!isObject(bm) || !isObject(rm)) return;
  const prefix = direction === "request" ? "request-body-media-type" : "response-body-media-type";
  for (const [key, name, what] of [["schema", "schema", "schema"], ["itemSchema", "item-schema", "itemSchema"]] as const) {
    const b = bm[key];
    const r = rm[key];
    if (b === undefined && r === undefined) continue;
    if (b === undefined) ctx.emit(`${prefix}-${name}-added`, `${label}: ${what} added`, { operation, revision: [...revAt, key] });
    else if (r === undefined) ctx.emit(`${prefix}-${name}-removed`, `${label}: ${what} removed`, { operation, base: [...baseAt, key] });
    else ctx.compareSchemas({ value: b, at: [...baseAt, key] }, { value: r, at: [...revAt, key] }, { direction, root: "body", label: key === "schema" ? label : `${label} stream items`, operation });
  }
}
