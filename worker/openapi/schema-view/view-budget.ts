/** @module The node budget a page's schema views share (see {@link VIEW_BUDGET}), and what one node costs. */
import { VIEW_BUDGET } from "../budgets";
import type { JsonObject } from "./refs";

/**
 * Nodes spent by the views of one page so far, and the page's limit. Create one per page; a section of a larger
 * page (one operation of the single-page layout) has the whole page's budget as `parent`, spent alongside.
 */
export interface ViewBudget {
  used: number;
  limit: number;
  parent?: ViewBudget;
}

/** A fresh page budget ({@link VIEW_BUDGET}.maxNodesPerPage nodes unless told otherwise), within `parent` if given. */
export function createViewBudget(limit: number = VIEW_BUDGET.maxNodesPerPage, parent?: ViewBudget): ViewBudget {
  return parent ? { used: 0, limit, parent } : { used: 0, limit };
}

/** Records `n` nodes shown, on the budget and its parents. */
export function spendBudget(budget: ViewBudget, n: number): void {
  for (let b: ViewBudget | undefined = budget; b; b = b.parent) b.used += n;
}

/** Whether the budget or one of its parents is spent. */
export function budgetSpent(budget: ViewBudget): boolean {
  for (let b: ViewBudget | undefined = budget; b; b = b.parent) if (b.used >= b.limit) return true;
  return false;
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
