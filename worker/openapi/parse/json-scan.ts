/**
 * @module Iterative scans over JSON text: nesting depth before JSON.parse (which recurses), and the first
 * syntax error with its offset (engines word and place JSON.parse errors differently, some without a position).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index just past the string literal that opens at `start` (a `"`), or -1 when it never closes. */
export function skipString(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q === -1) return -1;
    let slashes = 0;
    for (let j = q - 1; j > start && text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** Offset of the first `{`/`[` that opens nesting level `maxDepth + 1`, or -1 when the text stays within it. */
export function findExcessDepth(text: string, maxDepth: number): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (end === -1) return -1;
      i = end - 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return -1;
}

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

type State = "value" | "value-or-end" | "key" | "key-or-end" | "colon" | "comma-or-end" | "done";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** The first RFC 8259 syntax error in `text`, or undefined if it is valid JSON. Iterative: any depth is safe. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stack: number[] = [];
  let state: State = "value";
  let i = 0;
  const n = text.length;
  const fail = (message: string): JsonSyntaxError => ({ offset: Math.min(i, n), message });
  const afterValue = (): State => (stack.length ? "comma-or-end" : "done");
  for (;;) {
    while (i < n && isWhitespace(text.charCodeAt(i))) i++;
    if (i >= n) return state === "done" ? undefined : fail("Unexpected end of JSON input");
    const ch = text[i];
    switch (state) {
      case "done":
        return fail("Unexpected content after the JSON value");
      case "colon":
        if (ch !== ":") return fail("Expected ':' after property name");
        i++;
        state = "value";
        break;
      case "key":
      case "key-or-end":
        if (ch === "}" && state === "key-or-end") {
          stack.pop();
          i++;
          state = afterValue();
        } else if (ch === '"') {
          const err = scanString(text, i);
          if (typeof err !== "number") return err;
          i = err;
          state = "colon";
        } else return fail("Expected double-quoted property name");
        break;
      case "comma-or-end": {
        const closer = stack[stack.length - 1] === 0x7b ? "}" : "]";
        if (ch === ",") state = closer === "}" ? "key" : "value";
        else if (ch === closer) {
          stack.pop();
          state = afterValue();
        } else return fail(`Expected ',' or '${closer}' after ${closer === "}" ? "property value" : "array element"}`);
        i++;
        break;
      }
      case "value":
      case "value-or-end": {
        if (ch === "]" && state === "value-or-end") {
          stack.pop();
          i++;
          state = afterValue();
        } else if (ch === "{" || ch === "[") {
          stack.push(ch.charCodeAt(0));
          i++;
          state = ch === "{" ? "key-or-end" : "value-or-end";
        } else if (ch === '"') {
          const err = scanString(text, i);
          if (typeof err !== "number") return err;
          i = err;
          state = afterValue();
        } else {
          const re = ch === "-" || (ch >= "0" && ch <= "9") ? NUMBER : LITERAL;
          re.lastIndex = i;
          if (!re.test(text)) return fail(`Unexpected token '${ch}', expected a JSON value`);
          i = re.lastIndex;
          state = afterValue();
        }
        break;
      }
    }
  }
}

/** Validates the string literal at `start`; returns the index after it, or the error. */
function scanString(text: string, start: number): number | JsonSyntaxError {
  const n = text.length;
  for (let i = start + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return { offset: i, message: "Bad control character in string literal" };
    if (c === BACKSLASH) {
      const e = text[i + 1];
      if (e === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, message: "Bad Unicode escape in string literal" };
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else return { offset: i, message: "Bad escaped character in string literal" };
    }
  }
  return { offset: start, message: "Unterminated string in JSON" };
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
