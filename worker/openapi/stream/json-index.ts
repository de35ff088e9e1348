/**
 * @module Pass 1 of the streamed build (issue 12): one pass over a JSON definition's bytes as they arrive, with
 * the `@streamparser/json` tokenizer (no eval, byte offsets), that keeps no values, only where things are:
 * the byte range and source position of every top-level member, of every `paths` / `webhooks` entry and of every
 * `components/{section}/{name}` entry. Later steps read and parse one entry at a time by its range.
 *
 * The tokenizer does not check the grammar (`{"a" "b"}` tokenises fine), so a small state machine here does,
 * and a broken or truncated document is refused with the line and column of the first bad token (or of its
 * end). Positions follow parse/types.ts: 1-based lines split at `\n`, columns in UTF-16 code units, BOM excluded.
 */
import { Tokenizer, TokenType } from "@streamparser/json";
import { concatBytes } from "../../lib/read-stream";
import type { SourcePosition } from "../parse/types";

/** Where one member of an indexed object is: `[start, end)` are byte offsets of its value (end: before the `,`/`}` after it, trailing blanks included). */
export interface IndexedEntry {
  key: string;
  /** The key's position (what `locate` answers for a member). */
  keyAt: SourcePosition;
  /** Byte offset of the value's first byte. */
  start: number;
  /** Byte offset just past the value (and the blanks after it). */
  end: number;
  /** The value's position. */
  at: SourcePosition;
}

/** The index of a whole document: no values, only ranges and positions. Memory: a few hundred bytes an entry. */
export interface JsonIndex {
  /** Bytes read (the BOM included when there was one). */
  size: number;
  /** Byte offset of the root value (3 after a BOM). */
  rootStart: number;
  /** Top-level members in document order (a repeated key: the last one, as JSON.parse keeps). */
  top: Map<string, IndexedEntry>;
  /** `paths` entries, in order. */
  paths: Map<string, IndexedEntry>;
  /** `webhooks` entries, in order. */
  webhooks: Map<string, IndexedEntry>;
  /** `components` sections (`schemas`, `parameters`, ...) → their entries, in order. */
  components: Map<string, Map<string, IndexedEntry>>;
}

/** A document the index could not read: the reason, and where (message ends with the line and column, as parse/json.ts words it). */
export interface JsonIndexError {
  code: "syntax" | "too-deep" | "not-object" | "empty";
  message: string;
  line: number;
  column: number;
}

export type JsonIndexOutcome = { ok: true; index: JsonIndex } | { ok: false; error: JsonIndexError };

/**
 * Keeps the line and UTF-16 column of a monotonically advancing byte offset, holding only the bytes it has not
 * passed yet (the tokenizer reports a token's offset once the token is whole, so never behind the last one).
 */
class PositionScanner {
  private chunks: { base: number; bytes: Uint8Array }[] = [];
  private pos = 0;
  line = 1;
  column = 1;

  push(base: number, bytes: Uint8Array): void {
    if (this.chunks.length === 0 && this.pos < base) this.pos = base; // the BOM: skipped, not counted
    this.chunks.push({ base, bytes });
  }

  /** Moves to `offset` (never backwards) and answers its position. */
  at(offset: number): SourcePosition {
    while (this.pos < offset && this.chunks.length) {
      const { base, bytes } = this.chunks[0];
      const stop = Math.min(offset, base + bytes.length);
      let line = this.line;
      let column = this.column;
      for (let i = this.pos - base, end = stop - base; i < end; i++) {
        const b = bytes[i];
        if (b === 0x0a) {
          line++;
          column = 1;
        } else if ((b & 0xc0) !== 0x80) column += b >= 0xf0 ? 2 : 1; // a 4-byte sequence is a surrogate pair
      }
      this.line = line;
      this.column = column;
      this.pos = stop;
      if (stop === base + bytes.length) this.chunks.shift();
    }
    return { line: this.line, column: this.column };
  }
}

type Frame = {
  kind: "object" | "array";
  /** object: "key?" (first key or `}`), "key", "colon", "value", "comma"; array: "value?" (first or `]`), "value", "comma". */
  state: string;
  /** Where this frame's members are recorded, if they are. */
  into?: Map<string, IndexedEntry>;
  /** What the frame's members' values are (for the frames below them). */
  role?: "root" | "components";
  member?: IndexedEntry;
  key?: string;
};

/** Thrown inside the token callback; carries the offending byte offset. */
class Refusal extends Error {
  constructor(
    readonly code: JsonIndexError["code"],
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NAMES: Record<number, string> = {
  [TokenType.LEFT_BRACE]: "{",
  [TokenType.RIGHT_BRACE]: "}",
  [TokenType.LEFT_BRACKET]: "[",
  [TokenType.RIGHT_BRACKET]: "]",
  [TokenType.COLON]: ":",
  [TokenType.COMMA]: ",",
};

/**
 * Indexes a JSON document from its byte stream (see the module comment). Never holds more than the current
 * chunk, the tokenizer's current token and the index. Nesting past `maxDepth` is refused (later steps parse
 * entries with JSON.parse, which recurses).
 * @throws whatever the stream throws (storage errors); bad JSON is an `ok: false` outcome, not a throw.
 */
export async function indexJson(chunks: AsyncIterable<Uint8Array>, maxDepth = 512): Promise<JsonIndexOutcome> {
  const index: JsonIndex = { size: 0, rootStart: 0, top: new Map(), paths: new Map(), webhooks: new Map(), components: new Map() };
  const scanner = new PositionScanner();
  const tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  const stack: Frame[] = [];
  let rootSeen = false;
  let rootDone = false;

  const beginValue = (offset: number, what: string) => {
    const top = stack.at(-1);
    if (!top) {
      if (rootDone) throw new Refusal("syntax", `Unexpected ${what} after the end of the document`, offset);
      return;
    }
    if (top.kind === "object") {
      if (top.state !== "value") throw new Refusal("syntax", `Unexpected ${what}: expected ${top.state === "colon" ? "':'" : top.state === "comma" ? "',' or '}'" : "a property name"}`, offset);
      if (top.member) {
        top.member.start = offset;
        top.member.at = scanner.at(offset);
      }
    } else if (top.state !== "value" && top.state !== "value?") throw new Refusal("syntax", `Unexpected ${what}: expected ',' or ']'`, offset);
    top.state = "comma";
  };
  const endMember = (top: Frame, offset: number) => {
    if (top.member) {
      top.member.end = offset;
      top.into!.set(top.member.key, top.member);
      top.member = undefined;
    }
  };
  const open = (kind: Frame["kind"], offset: number) => {
    if (!rootSeen) {
      rootSeen = true;
      if (kind !== "object") throw new Refusal("not-object", "The document is an array, not an object", offset);
      index.rootStart = offset;
      stack.push({ kind, state: "key?", into: index.top, role: "root" });
      return;
    }
    beginValue(offset, kind === "object" ? "'{'" : "'['");
    if (stack.length >= maxDepth) throw new Refusal("too-deep", `Nesting deeper than ${maxDepth} levels`, offset);
    const parent = stack.at(-1)!;
    const frame: Frame = { kind, state: kind === "object" ? "key?" : "value?" };
    if (kind === "object" && parent.role === "root") {
      if (parent.key === "paths") frame.into = index.paths;
      else if (parent.key === "webhooks") frame.into = index.webhooks;
      else if (parent.key === "components") frame.role = "components";
    } else if (kind === "object" && parent.role === "components" && parent.key !== undefined) {
      frame.into = new Map();
      index.components.set(parent.key, frame.into);
    }
    stack.push(frame);
  };
  const close = (kind: Frame["kind"], offset: number) => {
    const top = stack.at(-1);
    const ok = top?.kind === kind && (kind === "object" ? top.state === "key?" || top.state === "comma" : top.state === "value?" || top.state === "comma");
    if (!ok) throw new Refusal("syntax", `Unexpected '${kind === "object" ? "}" : "]"}'`, offset);
    endMember(top, offset);
    stack.pop();
    if (stack.length === 0) rootDone = true;
  };

  let shift = 0; // 3 after a BOM: the tokenizer counts from the first byte it was given
  tokenizer.onToken = ({ token, value, offset: relative }) => {
    const offset = relative + shift;
    switch (token) {
      case TokenType.LEFT_BRACE:
        return open("object", offset);
      case TokenType.LEFT_BRACKET:
        return open("array", offset);
      case TokenType.RIGHT_BRACE:
        return close("object", offset);
      case TokenType.RIGHT_BRACKET:
        return close("array", offset);
      case TokenType.COLON: {
        const top = stack.at(-1);
        if (top?.kind !== "object" || top.state !== "colon") throw new Refusal("syntax", "Unexpected ':'", offset);
        top.state = "value";
        return;
      }
      case TokenType.COMMA: {
        const top = stack.at(-1);
        if (!top || top.state !== "comma") throw new Refusal("syntax", "Unexpected ','", offset);
        if (top.kind === "object") {
          endMember(top, offset);
          top.state = "key";
        } else top.state = "value";
        return;
      }
      case TokenType.STRING: {
        const top = stack.at(-1);
        if (top?.kind === "object" && (top.state === "key?" || top.state === "key")) {
          top.key = value as string;
          top.state = "colon";
          if (top.into) top.member = { key: top.key, keyAt: scanner.at(offset), start: -1, end: -1, at: { line: 0, column: 0 } };
          return;
        }
        if (!rootSeen) throw new Refusal("not-object", "The document is a string, not an object", offset);
        return beginValue(offset, "string");
      }
      default: {
        if (!rootSeen) {
          const kind = token === TokenType.NULL ? "null" : token === TokenType.NUMBER ? "a number" : "a boolean";
          throw new Refusal("not-object", `The document is ${kind}, not an object`, offset);
        }
        return beginValue(offset, token === TokenType.NUMBER ? "number" : "literal");
      }
    }
  };

  const failAt = (code: JsonIndexError["code"], message: string, offset: number): JsonIndexOutcome => {
    const at = scanner.at(offset);
    return { ok: false, error: { code, message: `${message} (line ${at.line}, column ${at.column})`, ...at } };
  };
  const refusal = (error: unknown): JsonIndexOutcome => {
    if (error instanceof Refusal) return failAt(error.code, error.message, error.offset);
    const message = error instanceof Error ? error.message : String(error);
    // The tokenizer words its errors with the absolute byte position; "Unexpected "x"" is kept, the rest dropped.
    const position = /absolute position "(\d+)"/.exec(message);
    if (position) return failAt("syntax", message.replace(/ at chunk position.*$/, ""), Number(position[1]) + shift);
    return failAt("syntax", "Unexpected end of the document", index.size);
  };

  let head: Uint8Array | undefined = new Uint8Array(0); // the first bytes, until a BOM can be told apart
  const feed = (base: number, chunk: Uint8Array) => {
    scanner.push(base, chunk);
    tokenizer.write(chunk);
  };
  try {
    for await (const chunk of chunks) {
      if (chunk.byteLength === 0) continue;
      index.size += chunk.byteLength;
      if (head) {
        const joined: Uint8Array = concatBytes([head, chunk], head.byteLength + chunk.byteLength);
        if (joined.byteLength < 3) {
          head = joined;
          continue;
        }
        head = undefined;
        // A UTF-8 BOM is not part of the text (parse/ strips it too): columns start after it.
        if (joined[0] === 0xef && joined[1] === 0xbb && joined[2] === 0xbf) shift = 3;
        feed(shift, joined.subarray(shift));
      } else feed(index.size - chunk.byteLength, chunk);
    }
    if (head?.byteLength) feed(0, head);
  } catch (error) {
    return refusal(error);
  }
  try {
    tokenizer.end();
  } catch (error) {
    return refusal(error);
  }
  if (!rootSeen) return { ok: false, error: { code: "empty", message: "The document is empty", line: 1, column: 1 } };
  if (!rootDone) return failAt("syntax", "Unexpected end of the document", index.size);
  return { ok: true, index };
}
