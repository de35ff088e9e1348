/**
 * @module UTF-8 output built in fixed blocks instead of one string: the search index of a huge definition (Microsoft
 * Graph v1.0: 21 M characters, as a two-byte string 43 MB) is written as it is produced, a megabyte at a time, so
 * no step holds the whole serialised index twice or as UTF-16. Platform-free.
 */

/** Bytes per block; a block is allocated when the previous one is full (the last one is cut to its length). */
const BLOCK_BYTES = 1024 * 1024;
/** An integer needs at most this many bytes (`-9007199254740991`). */
const INT_BYTES = 17;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const utf8 = new TextEncoder();

/**
 * An append-only UTF-8 byte stream kept as blocks (see {@link ByteWriter.finish}). Strings are encoded with
 * `TextEncoder.encodeInto` straight into the current block; a string that does not fit continues in the next one
 * (a character is never split across blocks, so a block may end a few bytes short of full).
 */
export class ByteWriter {
  private readonly blocks: Uint8Array[] = [];
  private block: Uint8Array;
  private at = 0;
  private done = 0;

  private readonly blockBytes: number;

  /** `blockBytes`: size of each block (at least 32 bytes, so any integer or character fits in an empty one). */
  constructor(blockBytes = BLOCK_BYTES) {
    this.blockBytes = Math.max(32, Math.floor(blockBytes));
    this.block = new Uint8Array(this.blockBytes);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.done + this.at;
  }

  /** Appends `text` as UTF-8 (lone surrogates become U+FFFD, as `TextEncoder` does). */
  write(text: string): void {
    let rest = text;
    for (;;) {
      const { read, written } = utf8.encodeInto(rest, this.block.subarray(this.at));
      this.at += written;
      if (read === rest.length) return;
      rest = rest.slice(read);
      this.next();
    }
  }

  /** Appends a safe integer in decimal, as `JSON.stringify` writes it, after the ASCII byte `before` when not 0. */
  writeInt(n: number, before = 0): void {
    if (this.block.length - this.at < INT_BYTES + 1) this.next();
    const block = this.block;
    let at = this.at;
    if (before) block[at++] = before;
    if ((n | 0) === n && n >= 0) {
      // The common case (postings, lengths, ids), digit by digit without a string: -0 writes "0" as String does.
      let digits = 1;
      for (let x = n; x >= 10; x = (x / 10) | 0) digits++;
      at += digits;
      for (let i = at - 1, x = n; i >= at - digits; i--, x = (x / 10) | 0) block[i] = 0x30 + (x % 10);
    } else {
      const s = String(n);
      for (let i = 0; i < s.length; i++) block[at++] = s.charCodeAt(i);
    }
    this.at = at;
  }

  /** Appends integers `list[from..to)` as a JSON array (`[1,2,3]`). */
  writeIntArray(list: ArrayLike<number>, from = 0, to = list.length): void {
    // Brackets as bytes: an index writes tens of thousands of short arrays (a string write each costs an encodeInto).
    if (from >= to) return this.write("[]");
    for (let i = from; i < to; i++) this.writeInt(list[i], i > from ? COMMA : OPEN_BRACKET);
    if (this.at === this.block.length) this.next();
    this.block[this.at++] = CLOSE_BRACKET;
  }

  private next(): void {
    this.blocks.push(this.block.subarray(0, this.at));
    this.done += this.at;
    this.block = new Uint8Array(this.blockBytes);
    this.at = 0;
  }

  /** The bytes written, in order (each block cut to what it holds); the writer must not be used afterwards. */
  finish(): Uint8Array[] {
    const last = this.block.slice(0, this.at);
    this.block = new Uint8Array(0);
    return [...this.blocks, last];
  }
}

/** Total length of `blocks`. */
export function blocksLength(blocks: readonly Uint8Array[]): number {
  return blocks.reduce((n, b) => n + b.byteLength, 0);
}

/** Bytes `[start, end)` of the stream `blocks` make, copied into one array. */
export function sliceBlocks(blocks: readonly Uint8Array[], start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  let offset = 0;
  for (const b of blocks) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + b.byteLength);
    if (from < to) out.set(b.subarray(from - offset, to - offset), from - start);
    offset += b.byteLength;
    if (offset >= end) break;
  }
  return out;
}

/**
 * The stream's text, decoded at once into one flat string as the read path decodes a stored index (tests and
 * benches; the publisher never decodes a whole index).
 */
export function blocksText(blocks: readonly Uint8Array[]): string {
  return new TextDecoder().decode(blocks.length === 1 ? blocks[0] : sliceBlocks(blocks, 0, blocksLength(blocks)));
}
