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
import { createDeferState, createRenderContext, type DeferState, type RenderContext } from "./context";

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

/**
 * Whether an example of `text` (pretty-printed, before the reader's `{{name}}` values fill it) defers, and under
 * which fragment id (`x0`, `x1`… in the examples column's order). Examples inline while the page's example budget
 * ({@link PAGE_WEIGHT}.inlineExampleChars) lasts; past it, one more than twice its preview defers. An example with
 * a `{{name}}` placeholder never defers: fragments are public and immutable, so they cannot carry a reader's values.
 */
export function deferExample(ctx: RenderContext, text: string): string | undefined {
  const d = ctx.defer;
  if (!d || d.prefix !== "") return undefined;
  if (d.exampleSpent + text.length > PAGE_WEIGHT.inlineExampleChars && text.length > 2 * PAGE_WEIGHT.examplePreviewChars && !text.includes("{{")) {
    return `x${d.nextExample++}`;
  }
  d.exampleSpent += text.length;
  return undefined;
}

/**
 * The first lines of a deferred example, then "…": up to {@link PAGE_WEIGHT}.examplePreviewLines whole lines within
 * examplePreviewChars characters (a first line longer than that is cut).
 */
export function examplePreview(text: string): string {
  const lines = text.split("\n", PAGE_WEIGHT.examplePreviewLines).join("\n").slice(0, PAGE_WEIGHT.examplePreviewChars);
  const end = lines.length < PAGE_WEIGHT.examplePreviewChars ? lines.length : lines.lastIndexOf("\n");
  return `${end > 0 ? lines.slice(0, end) : lines}\n…`;
}
