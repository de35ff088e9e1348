/** @module Applying and computing text changes: the currency between the page's editor and the worker's copy. */
import type { TextChange } from "./protocol";

/**
 * Applies changes that all refer to the same original text (non-overlapping, ascending, as CodeMirror's
 * `iterChanges` yields them) and returns the new text.
 */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  if (changes.length === 1) {
    const c = changes[0];
    return text.slice(0, c.from) + c.insert + text.slice(c.to);
  }
  const parts: string[] = [];
  let pos = 0;
  for (const c of changes) {
    parts.push(text.slice(pos, c.from), c.insert);
    pos = c.to;
  }
  parts.push(text.slice(pos));
  return parts.join("");
}

/** The single smallest replacement turning `before` into `after` (common prefix and suffix kept). */
export function minimalChange(before: string, after: string): TextChange {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before.charCodeAt(endB - 1) === after.charCodeAt(endA - 1)) {
    endB--;
    endA--;
  }
  return { from: start, to: endB, insert: after.slice(start, endA) };
}
