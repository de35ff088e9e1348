/**
 * @module The light index reader (issue 12): the stored JSON text of {@link IndexData} read from its UTF-8 bytes
 * without ever holding it as one string or parsing it whole. Documents stay as byte ranges of the stored bytes
 * (each parsed once at load for its kind, locale and access group, then dropped; parsed again only when it is a
 * result shown); postings and the per-document and per-word numbers are scanned into typed arrays; only the
 * vocabulary, the mined relations and the vector ids (small) go through JSON.parse. The format is unchanged
 * (INDEX_FORMAT), so indexes already stored read the same.
 *
 * Microsoft Graph v1.0's index (21 MB of text): JSON.parse retained ~40 MB of heap and needed the 21 MB text as a
 * string too; this keeps the bytes plus a few MB of typed arrays (bench/search-load.mjs).
 */
import { DocColumns, type IndexView } from "./format";
import type { SearchDocument } from "./types";

/**
 * Thrown when the bytes are not shaped as this reader expects (not JSON, or JSON it does not handle: a fractional
 * posting, say); the caller then falls back to JSON.parse, which either reads it or reports the error.
 */
export class UnreadableIndex extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const INT_MAX = 0x7fffffff;

/** The index's format string and its {@link IndexView}, read from the stored bytes (`bytes` is kept: do not reuse it). */
export function readIndexBytes(bytes: Uint8Array): { format: unknown; view: IndexView; extra: Record<string, unknown> } {
  return new Reader(bytes).read();
}

class Reader {
  // Not fatal, as the JSON.parse path decodes: a stray invalid byte reads as U+FFFD either way.
  private readonly decoder = new TextDecoder();
  private p = 0;

  constructor(private readonly b: Uint8Array) {}

  read(): { format: unknown; view: IndexView; extra: Record<string, unknown> } {
    const fields: Record<string, unknown> = {};
    let docs: { starts: Int32Array; ends: Int32Array } | undefined;
    let postings: { start: Int32Array; flat: Int32Array } | undefined;
    let headLen: Int32Array | undefined;
    let wordTerm: Int32Array | undefined;
    this.ws();
    this.expect(OPEN_BRACE);
    this.ws();
    if (this.b[this.p] !== CLOSE_BRACE) {
      for (;;) {
        this.ws();
        const keyStart = this.p;
        this.skipString();
        const key = this.parse(keyStart, this.p);
        this.ws();
        this.expect(COLON);
        this.ws();
        if (key === "docs") docs = this.ranges();
        else if (key === "postings") postings = this.lists();
        else if (key === "headLen") headLen = this.ints();
        else if (key === "wordTerm") wordTerm = this.ints();
        // A search shard's per-document field lengths, public words and (lazy shards) document rows and byte ranges
        // (shard-build.ts): many integers.
        else if (key === "lens" || key === "publicWords" || key === "docRows" || key === "docStarts" || key === "docEnds") fields[key] = this.ints();
        else {
          const start = this.p;
          this.skipValue();
          fields[key as string] = this.parse(start, this.p);
        }
        this.ws();
        if (this.b[this.p] === COMMA) {
          this.p++;
          continue;
        }
        this.expect(CLOSE_BRACE);
        break;
      }
    } else this.p++;
    this.ws();
    if (this.p !== this.b.length) throw new UnreadableIndex("bytes after the index");
    const { terms, words, related, vectors } = fields as { terms?: unknown; words?: unknown; related?: unknown; vectors?: unknown };
    if (!docs || !postings || !headLen || !wordTerm || !isStrings(terms) || !isStrings(words) || !related || typeof related !== "object") {
      // Not an index this reader knows the shape of: JSON.parse decides (a wrong format is reported there too).
      throw new UnreadableIndex("missing or unexpected fields");
    }
    if (vectors !== undefined && !isStrings(vectors)) throw new UnreadableIndex("vectors");
    const { starts, ends } = docs;
    const b = this.b;
    const decoder = this.decoder;
    const get = (i: number): SearchDocument => JSON.parse(decoder.decode(b.subarray(starts[i], ends[i]))) as SearchDocument;
    const table = new DocColumns(starts.length, get);
    for (let i = 0; i < starts.length; i++) {
      const d = get(i);
      if (!d || typeof d !== "object") throw new UnreadableIndex("document");
      table.add(i, d);
    }
    const { start, flat } = postings;
    const view: IndexView = {
      docs: table,
      headLen,
      terms,
      postings: (t) => flat.subarray(start[t], start[t + 1]),
      // Set by load.ts from the format once it is checked.
      titleBit: false,
      words,
      wordTerm,
      related: related as Record<string, number[]>,
      ...(vectors ? { vectors } : {}),
    };
    return { format: fields.format, view, extra: fields };
  }

  private parse(start: number, end: number): unknown {
    try {
      return JSON.parse(this.decoder.decode(this.b.subarray(start, end)));
    } catch (e) {
      throw new UnreadableIndex("value", { cause: e });
    }
  }

  private ws(): void {
    const b = this.b;
    let p = this.p;
    for (let c = b[p]; c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = b[++p]);
    this.p = p;
  }

  private expect(c: number): void {
    if (this.b[this.p] !== c) throw new UnreadableIndex(`expected ${String.fromCharCode(c)} at byte ${this.p}`);
    this.p++;
  }

  /** Past one JSON string (UTF-8 continuation bytes are >= 0x80, so never a quote or a backslash). */
  private skipString(): void {
    const b = this.b;
    const n = b.length;
    let p = this.p;
    if (b[p] !== QUOTE) throw new UnreadableIndex(`expected a string at byte ${p}`);
    // The next quote found natively (indexOf), not byte by byte in script: strings are most of an index's bytes.
    // A quote after an odd run of backslashes is escaped.
    for (;;) {
      const q = b.indexOf(QUOTE, p + 1);
      if (q < 0 || q >= n) throw new UnreadableIndex("unterminated string");
      let k = q - 1;
      while (b[k] === BACKSLASH) k--;
      p = q;
      if ((q - 1 - k) % 2 === 0) {
        this.p = q + 1;
        return;
      }
    }
  }

  /** Past one JSON value (not validated: whatever is kept of it is parsed before use). */
  private skipValue(): void {
    const b = this.b;
    const n = b.length;
    const c = b[this.p];
    if (c === QUOTE) return this.skipString();
    if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
      let p = this.p;
      while (p < n && b[p] !== COMMA && b[p] !== CLOSE_BRACE && b[p] !== CLOSE_BRACKET) p++;
      if (p === this.p) throw new UnreadableIndex(`expected a value at byte ${p}`);
      this.p = p;
      return;
    }
    let depth = 0;
    while (this.p < n) {
      const x = b[this.p];
      if (x === QUOTE) {
        this.skipString();
        continue;
      }
      if (x === OPEN_BRACE || x === OPEN_BRACKET) depth++;
      else if (x === CLOSE_BRACE || x === CLOSE_BRACKET) {
        this.p++;
        if (--depth === 0) return;
        continue;
      }
      this.p++;
    }
    throw new UnreadableIndex("unterminated value");
  }

  /** An array of values as the byte ranges of its elements. */
  private ranges(): { starts: Int32Array; ends: Int32Array } {
    const starts: number[] = [];
    const ends: number[] = [];
    this.each(() => {
      starts.push(this.p);
      this.skipValue();
      ends.push(this.p);
    });
    return { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
  }

  /** An array of integers (32-bit), counted first so the result is allocated once at its size. */
  private ints(): Int32Array {
    const from = this.p;
    const count = this.intList(undefined, 0);
    const out = new Int32Array(count);
    this.p = from;
    this.intList(out, 0);
    return out;
  }

  /** An array of integer arrays: all in one Int32Array, list t at [start[t], start[t + 1]). Two passes: count, fill. */
  private lists(): { start: Int32Array; flat: Int32Array } {
    const from = this.p;
    let lists = 0;
    let total = 0;
    this.each(() => {
      total += this.intList(undefined, 0);
      lists++;
    });
    const start = new Int32Array(lists + 1);
    const flat = new Int32Array(total);
    this.p = from;
    let t = 0;
    this.each(() => {
      start[t + 1] = start[t] + this.intList(flat, start[t]);
      t++;
    });
    return { start, flat };
  }

  /** Calls `element` at each element of an array (positioned on it); leaves the position past the array. */
  private each(element: () => void): void {
    this.expect(OPEN_BRACKET);
    this.ws();
    if (this.b[this.p] === CLOSE_BRACKET) {
      this.p++;
      return;
    }
    for (;;) {
      this.ws();
      element();
      this.ws();
      if (this.b[this.p] === COMMA) {
        this.p++;
        continue;
      }
      this.expect(CLOSE_BRACKET);
      return;
    }
  }

  /** One `[int, ...]` written into `out` from `at` (or only counted); returns how many. */
  private intList(out: Int32Array | undefined, at: number): number {
    const b = this.b;
    let n = 0;
    this.each(() => {
      let p = this.p;
      const negative = b[p] === MINUS;
      if (negative) p++;
      let v = 0;
      const first = p;
      for (let c = b[p]; c >= ZERO && c <= NINE; c = b[++p]) {
        v = v * 10 + (c - ZERO);
        if (v > INT_MAX) throw new UnreadableIndex("integer out of range");
      }
      // A fraction or an exponent is valid JSON but not what the builder writes: JSON.parse reads those.
      if (p === first || b[p] === 0x2e || b[p] === 0x65 || b[p] === 0x45) throw new UnreadableIndex(`not an integer at byte ${first}`);
      if (out) out[at + n] = negative ? -v : v;
      n++;
      this.p = p;
    });
    return n;
  }
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}
