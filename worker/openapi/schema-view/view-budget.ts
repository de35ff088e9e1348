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

/** Characters of description and title that cost as much as one node (a 2.5 MB description is not one node). */
const TEXT_PER_NODE = 1_000;

/** What showing `schema` costs: one node, plus one per {@link TEXT_PER_NODE} characters of its own text. */
export function nodeCost(schema: JsonObject): number {
  const text = (typeof schema.description === "string" ? schema.description.length : 0) + (typeof schema.title === "string" ? schema.title.length : 0);
  return 1 + Math.floor(text / TEXT_PER_NODE);
}
