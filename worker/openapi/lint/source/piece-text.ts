/**
 * @module A long text as a list of chunks, edited in place. V8 keeps `a.slice(0, i) + x + a.slice(j)` as a rope and
 * copies the whole of it (about 100 ms for a 13 MB two-byte text) the first time it is read; an editing session
 * that builds the new text that way pays that on every keystroke. Here an edit rewrites one chunk (tens of KB),
 * and reads of a short range copy only that range.
 */

import { lineAt } from "../../parse/line-index";
import type { TextChange } from "./yaml-block";

/** Chunks are cut at about this many UTF-16 code units; an edited chunk is split again past twice that. */
export const CHUNK_CHARS = 32 * 1024;

/** A text kept as chunks of about {@link CHUNK_CHARS}: edits rewrite one chunk, short reads copy only their range. */
export class PieceText {
  private chunks: string[] = [];
  /** Offset of each chunk's first character. */
  private starts: number[] = [];
  private whole: string | undefined;
  length: number;

  constructor(text: string) {
    this.length = text.length;
    this.whole = text;
    for (let at = 0; at < text.length; at += CHUNK_CHARS) this.chunks.push(text.slice(at, at + CHUNK_CHARS));
    if (this.chunks.length === 0) this.chunks.push("");
    this.reindex(0);
  }

  /** The UTF-16 code unit at `offset` (NaN outside the text, as String#charCodeAt). */
  charCodeAt(offset: number): number {
    if (offset < 0 || offset >= this.length) return NaN;
    const i = this.chunkAt(offset);
    return this.chunks[i].charCodeAt(offset - this.starts[i]);
  }

  /** The text from `from` to `to` (clamped), copying only the chunks it spans. */
  slice(from: number, to: number = this.length): string {
    from = Math.max(0, Math.min(from, this.length));
    to = Math.max(from, Math.min(to, this.length));
    if (this.whole !== undefined) return this.whole.slice(from, to);
    const first = this.chunkAt(from);
    const last = this.chunkAt(Math.max(from, to - 1));
    if (first === last) return this.chunks[first].slice(from - this.starts[first], to - this.starts[first]);
    const parts = [this.chunks[first].slice(from - this.starts[first])];
    for (let i = first + 1; i < last; i++) parts.push(this.chunks[i]);
    parts.push(this.chunks[last].slice(0, to - this.starts[last]));
    return parts.join("");
  }

  /** Replaces `from`–`to` with `insert` (offsets into the current text). */
  apply(change: TextChange): void {
    const first = this.chunkAt(change.from);
    const last = this.chunkAt(Math.max(change.from, change.to - (change.to > change.from ? 1 : 0)));
    const head = this.chunks[first].slice(0, change.from - this.starts[first]);
    const tail = this.chunks[last].slice(change.to - this.starts[last]);
    // Copy now (a few chunks): left as a rope it would be flattened on the next read anyway.
    const merged = flat(head + change.insert + tail);
    const pieces: string[] = [];
    if (merged.length > 2 * CHUNK_CHARS) for (let at = 0; at < merged.length; at += CHUNK_CHARS) pieces.push(merged.slice(at, at + CHUNK_CHARS));
    else if (merged) pieces.push(merged);
    this.chunks.splice(first, last - first + 1, ...pieces);
    if (this.chunks.length === 0) this.chunks.push("");
    this.length += change.insert.length - (change.to - change.from);
    this.whole = undefined;
    this.reindex(first);
  }

  /** The whole text (joined once, then kept until the next edit). */
  toString(): string {
    return (this.whole ??= this.chunks.join(""));
  }

  private reindex(from: number): void {
    this.starts.length = this.chunks.length;
    let at = from === 0 ? 0 : this.starts[from - 1] + this.chunks[from - 1].length;
    for (let i = from; i < this.chunks.length; i++) {
      this.starts[i] = at;
      at += this.chunks[i].length;
    }
  }

  /** The chunk holding `offset` (the last chunk for the end of the text). */
  private chunkAt(offset: number): number {
    return lineAt(this.starts, offset);
  }
}

/** A flat copy of `s` (reading one character makes V8 flatten a rope in place). */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}
