/**
 * @module A source's search documents kept as UTF-8 JSON arrays (parts) rather than objects: the cached-set format
 * of store/search.ts (KV values), and how a publish holds the documents of the definition it is storing until the
 * portal's index is built. Microsoft Graph v1.0's 11,422 documents are 17 MB this way against ~58 MB as objects;
 * the index builder reads them back one part at a time. Platform-free.
 */
import type { SearchDocument } from "./types";

/** Default part size: small enough that one part's documents, parsed, stay a few MB. */
export const DOCUMENT_PART_BYTES = 2 * 1024 * 1024;

const utf8 = new TextEncoder();

/**
 * Appends documents to JSON arrays of at most `maxBytes` UTF-8 bytes each (a document larger than that gets a part
 * of its own), in order: the bytes `JSON.stringify` gives each array.
 */
export class DocumentSetWriter {
  private readonly parts: Uint8Array[] = [];
  private buffer = new Uint8Array(64 * 1024);
  private at = 0;
  private docs = 0;
  /** Documents added so far. */
  count = 0;

  constructor(private readonly maxBytes = DOCUMENT_PART_BYTES) {}

  /** Appends one document (serialised at once: the object may be dropped afterwards). */
  add(doc: SearchDocument): void {
    const json = JSON.stringify(doc);
    // UTF-8 needs at most 3 bytes per UTF-16 unit; the array's comma and bracket need 2 more.
    this.reserve(json.length * 3 + 2);
    const mark = this.at;
    this.buffer[this.at++] = this.docs === 0 ? 0x5b : 0x2c;
    this.at += utf8.encodeInto(json, this.buffer.subarray(this.at)).written;
    if (this.docs > 0 && this.at + 1 > this.maxBytes) {
      // Over the part's size: close the part before this document and start the next one with it.
      this.at = mark;
      this.close();
      return this.add(doc);
    }
    this.docs++;
    this.count++;
  }

  private reserve(extra: number): void {
    if (this.at + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.at + extra));
    grown.set(this.buffer.subarray(0, this.at));
    this.buffer = grown;
  }

  private close(): void {
    if (this.docs === 0) this.buffer[this.at++] = 0x5b;
    this.buffer[this.at++] = 0x5d;
    this.parts.push(this.buffer.slice(0, this.at));
    this.at = 0;
    this.docs = 0;
    this.buffer = new Uint8Array(Math.min(this.buffer.length, 64 * 1024 + this.maxBytes));
  }

  /** The parts (always at least one: `[]` for no documents); the writer must not be used afterwards. */
  finish(): Uint8Array[] {
    if (this.docs > 0 || this.parts.length === 0) this.close();
    this.buffer = new Uint8Array(0);
    return this.parts;
  }
}

/** `docs` as parts (see {@link DocumentSetWriter}). */
export function documentParts(docs: Iterable<SearchDocument>, maxBytes = DOCUMENT_PART_BYTES): Uint8Array[] {
  const writer = new DocumentSetWriter(maxBytes);
  for (const d of docs) writer.add(d);
  return writer.finish();
}

/** The documents of one part (a JSON array). Throws on a part that is not one. */
export function partDocuments(part: Uint8Array): SearchDocument[] {
  const docs = JSON.parse(new TextDecoder().decode(part)) as unknown;
  if (!Array.isArray(docs)) throw new TypeError("a search document part is not a JSON array");
  return docs as SearchDocument[];
}

/**
 * The documents of one part, parsed one at a time: the part's bytes are scanned for its top-level values (strings
 * and nesting tracked), and each is decoded and parsed alone, so only one document is an object at a time (a
 * whole 2 MiB part parsed at once lives long enough to reach V8's old space, which a heap near its limit pays for
 * in full collections). Throws on a part that is not a JSON array.
 */
export function* eachPartDocument(part: Uint8Array): Generator<SearchDocument> {
  const decoder = new TextDecoder();
  let i = 0;
  const n = part.length;
  const skipSpace = () => {
    while (i < n && (part[i] === 0x20 || part[i] === 0x0a || part[i] === 0x0d || part[i] === 0x09)) i++;
  };
  skipSpace();
  if (part[i] !== 0x5b) throw new TypeError("a search document part is not a JSON array");
  i++;
  skipSpace();
  if (part[i] === 0x5d) return;
  for (;;) {
    const start = i;
    let depth = 0;
    for (; i < n; i++) {
      const c = part[i];
      if (c === 0x22) {
        // A string: skip to its closing quote (a backslash escapes the next byte).
        for (i++; i < n && part[i] !== 0x22; i++) if (part[i] === 0x5c) i++;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) break;
        depth--;
      } else if (c === 0x2c && depth === 0) break;
    }
    if (i >= n) throw new TypeError("a search document part is not a JSON array");
    yield JSON.parse(decoder.decode(part.subarray(start, i))) as SearchDocument;
    if (part[i] === 0x5d) return;
    i++;
  }
}

/** Every document of `parts`, in order, parsing one part at a time. */
export function* documentsOf(parts: readonly Uint8Array[]): Generator<SearchDocument> {
  for (const part of parts) yield* eachPartDocument(part);
}
