/**
 * @module Page weight: schema bodies past the page's inline budget ({@link PAGE_WEIGHT}) are not inlined but
 * load on expand from a fragment URL (an immutable page of their own, readable without script). Deferred bodies
 * are numbered in document order (`3`, and inside fragment 3 `3.0`, `3.1`…); rendering is deterministic for one
 * slice, so the fragment route re-renders the page and captures body `n` by that number.
 */
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { PAGE_WEIGHT } from "../../openapi/budgets";
import type { SchemaView } from "../../openapi/schema-view/types";
import { approxSize } from "../../openapi/schema-view/view-budget";
import { createRenderContext, type RenderContext } from "./context";

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
  /** Set by the fragment route: the body to capture (`3.1`) and, once rendered, its HTML. */
  capture?: { target: string; html?: string };
}

/** A fresh page-level state: bodies past `limit` estimated bytes defer to `href(id)`. */
export function createDeferState(href: (id: string) => string, capture?: DeferState["capture"], prefix = "", limit: number = PAGE_WEIGHT.inlineSchemaBytes): DeferState {
  return { spent: 0, limit, next: 0, prefix, href, capture };
}

/** Records one schema row (its markup, description and facts: enum, examples, default, constraints) against the page's inline budget. */
export function spendRow(ctx: RenderContext, view: SchemaView): void {
  if (!ctx.defer) return;
  const facts = [view.description, view.enum, view.examples, view.default, view.const, view.constraints].filter((f) => f !== undefined);
  ctx.defer.spent += PAGE_WEIGHT.rowBytes + approxSize(facts, PAGE_WEIGHT.inlineSchemaBytes);
}

/**
 * `body(ctx)` inline while the page's inline budget lasts; past it, a placeholder whose link (and, with script,
 * expanding its `<details>`) loads the body from its fragment URL. `what` names the body ("12 properties").
 * In capture mode the body numbered `capture.target` is rendered on its own (with a fresh budget of its own).
 */
export function Deferrable({ ctx, what, body, rows = 0 }: { ctx: RenderContext; what: string; body: (ctx: RenderContext) => VNode | null; rows?: number }) {
  const d = ctx.defer;
  // `rows`: the body's own rows, shown whatever happens below them. A body that would overrun the budget defers
  // whole, once half the budget is spent (the page's first large body still shows its top level).
  const overrun = rows > 0 && d !== undefined && d.spent >= d.limit / 2 && d.spent + rows * PAGE_WEIGHT.rowBytes > d.limit;
  if (!d || (d.spent < d.limit && !overrun)) return body(ctx);
  const id = `${d.prefix}${d.next++}`;
  const capture = d.capture;
  if (capture && (capture.target === id || capture.target.startsWith(`${id}.`))) {
    const html = renderToString(body(fragmentContext(d, id)) ?? <></>);
    if (capture.target === id) capture.html = html;
  }
  const href = d.href(id);
  return <p class="df" data-frag={href}><a href={href}>Show {what}</a></p>;
}

/** The context a fragment's body renders in: its own ids (radio groups stay apart from the page's) and budget. */
function fragmentContext(d: DeferState, id: string): RenderContext {
  const ctx = createRenderContext(`f${id.replaceAll(".", "-")}-`);
  ctx.defer = createDeferState(d.href, d.capture, `${id}.`, d.limit);
  return ctx;
}
