/**
 * @module Per-render state: unique ids for radio groups and anchors, the page's repeated-schema registry, its view
 * budget and its page-weight state (what defer.tsx spends and numbers).
 */
import { PAGE_WEIGHT } from "../../openapi/budgets";
import { createRepeatRegistry, createViewBudget, type RepeatRegistry, type ViewBudget } from "../../openapi/schema-view/build-view";

/** Passed down the component tree of one page render. */
export interface RenderContext {
  /** A page-unique id starting with `prefix`. */
  uid(prefix: string): string;
  /** Named schemas already expanded on this page (later appearances link back instead of repeating). */
  repeats: RepeatRegistry;
  /** The page's schema-view node budget, shared by every tree on the page (past it, trees are cut with a note). */
  budget: ViewBudget;
  /** Page weight: set on operation pages and fragments, where schema bodies past an inline budget load on expand. */
  defer?: DeferState;
}

/**
 * A fresh context; `scope` prefixes ids so operations on one single page stay apart, and `pageBudget` (the single
 * page's) is spent alongside the operation's own budget.
 */
export function createRenderContext(scope = "", pageBudget?: ViewBudget): RenderContext {
  let n = 0;
  return { uid: (prefix) => `${scope}${prefix}${(n++).toString(36)}`, repeats: createRepeatRegistry(), budget: createViewBudget(undefined, pageBudget) };
}

/** Inline budget and numbering of one page or fragment render. */
export interface DeferState {
  /** Estimated bytes inlined so far, and the limit. */
  spent: number;
  limit: number;
  /** Next body number, and the prefix of this render's numbers (`` on the page, `3.` in fragment 3). */
  next: number;
  prefix: string;
  /** The fragment URL of body `id`. */
  href(id: string): string;
  /** Set by the fragment route: the body to capture (`3.1`, or example `x2`) and, once rendered, its HTML. */
  capture?: { target: string; html?: string };
  /** Characters of examples inlined so far in the examples column, and the next deferred example's number. */
  exampleSpent: number;
  nextExample: number;
}

/** A fresh page-level state: bodies past `limit` estimated bytes defer to `href(id)`. */
export function createDeferState(href: (id: string) => string, capture?: DeferState["capture"], prefix = "", limit: number = PAGE_WEIGHT.inlineSchemaBytes): DeferState {
  return { spent: 0, limit, next: 0, prefix, href, capture, exampleSpent: 0, nextExample: 0 };
}
