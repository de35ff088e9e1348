/** @module Per-render state: unique ids for radio groups and anchors, and the page's repeated-schema registry. */
import { createRepeatRegistry, type RepeatRegistry } from "../../openapi/schema-view/build-view";

/** Passed down the component tree of one page render. */
export interface RenderContext {
  /** A page-unique id starting with `prefix`. */
  uid(prefix: string): string;
  /** Named schemas already expanded on this page (later appearances link back instead of repeating). */
  repeats: RepeatRegistry;
}

/** A fresh context; `scope` prefixes ids so operations on one single page stay apart. */
export function createRenderContext(scope = ""): RenderContext {
  let n = 0;
  return { uid: (prefix) => `${scope}${prefix}${(n++).toString(36)}`, repeats: createRepeatRegistry() };
}
