/** @module Per-render state: unique ids for radio groups and anchors, the page's repeated-schema registry and its view budget. */
import type { DeferState } from "./defer";
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
