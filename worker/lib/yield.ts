/**
 * @module Giving the event loop a turn inside long work (issue 14: a 9,000-operation publish held its isolate for
 * 7-10 s, and a page of another portal served by the same isolate waited for all of it).
 *
 * `setTimeout(…, 0)` rather than `scheduler.wait(0)` (not in workerd) or a resolved promise (a microtask: requests
 * waiting on the isolate get no turn). Callers yield between steps and between chunks of a loop, not on a timer:
 * workerd's clock does not advance while code runs, so "every 50 ms" cannot be measured inside synchronous work.
 */

/** Resolves on a later turn of the event loop, after the requests and I/O callbacks already waiting. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

