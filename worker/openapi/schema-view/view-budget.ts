/** @module The node budget a page's schema views share (see {@link VIEW_BUDGET}), and what one node costs. */
import { VIEW_BUDGET } from "../budgets";
import type { JsonObject } from "./refs";

/** Nodes spent by the views of one page so far, and the page's limit. Create one per page. */
export interface ViewBudget {
  used: number;
  limit: number;
}

/** A fresh page budget ({@link VIEW_BUDGET}.maxNodesPerPage nodes unless told otherwise). */
export function createViewBudget(limit: number = VIEW_BUDGET.maxNodesPerPage): ViewBudget {
  return { used: 0, limit };
}

/** Characters of a node's own text and values that cost as much as one node (a 2.5 MB description is not one node). */
const TEXT_PER_NODE = 1_000;

/** Rough JSON size of `value` in characters, counted up to `cap` (an iterative walk that stops early). */
export function approxSize(value: unknown, cap: number): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n < cap) {
    const v = stack.pop();
    if (typeof v === "string") n += v.length + 2;
    else if (Array.isArray(v)) { n += 2 + v.length; for (const x of v) stack.push(x); }
    else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) { n += k.length + 4; stack.push(x); }
    } else n += 6;
  }
  return Math.min(n, cap);
}

const OWN_VALUES = ["description", "title", "example", "examples", "default", "const", "enum"];

/**
 * What showing `schema` costs: one node, plus one per {@link TEXT_PER_NODE} characters of its own text and
 * values (description, title, examples, default, const, enum), so that a huge description or enum repeated
 * on many nodes spends the page's budget instead of its memory.
 */
export function nodeCost(schema: JsonObject): number {
  let size = 0;
  for (const k of OWN_VALUES) if (schema[k] !== undefined) size += approxSize(schema[k], 1_000_000);
  return 1 + Math.floor(size / TEXT_PER_NODE);
}
