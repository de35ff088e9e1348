/** @module Offset → line/column conversion over a text, with the newline table built on first use. */

import type { SourcePosition } from "./types";

/** Converts 0-based offsets into 1-based line/column; builds its newline table lazily (one pass, 4 bytes/line). */
export class LineIndex {
  private starts: Uint32Array | undefined;

  constructor(private readonly text: string) {}

  position(offset: number): SourcePosition {
    const starts = (this.starts ??= buildLineStarts(this.text));
    const line = lineAt(starts, offset);
    return { line: line + 1, column: offset - starts[line] + 1 };
  }
}

/** The 0-based line holding `offset`, by binary search over ascending line start offsets (`starts[0]` is 0). */
export function lineAt(starts: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The offset of each line's first character in `text` (line 1 at index 0; lines end at "\n"). */
export function buildLineStarts(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  const starts = new Uint32Array(count);
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts[n++] = i + 1;
  return starts;
}
