/**
 * @module Re-parses only the JSON value an edit falls in. JSON values are self-delimiting: when the edited value's
 * new text (same start, end moved by the edit) is itself valid JSON, the whole text is the old document with
 * that value replaced. Finding the value scans the containers on its path once, with no index to maintain.
 */

import type { Segment } from "../rule";
import type { TextChange } from "./yaml-block";

export type JsonBlockOutcome = { kind: "value"; path: Segment[]; value: unknown } | { kind: "unsupported" };

/** The innermost value of `text` (valid JSON) that strictly contains `change`, re-parsed from `next`. */
export function reparseJsonBlock(text: string, next: string, change: TextChange): JsonBlockOutcome {
  let start = skipSpace(text, 0);
  let end = skipValue(text, start);
  const path: Segment[] = [];
  let best: { start: number; end: number; path: Segment[] } | undefined;
  for (;;) {
    const c = text.charCodeAt(start);
    const delimited = c === 0x7b || c === 0x5b || c === 0x22;
    const inside = delimited ? start < change.from && change.to < end : start <= change.from && change.to <= end;
    if (!inside) break;
    best = { start, end, path: [...path] };
    if (c !== 0x7b && c !== 0x5b) break;
    const member = memberAt(text, start, change);
    if (!member) break;
    path.push(member.segment);
    start = member.start;
    end = member.end;
  }
  if (!best || best.path.length === 0) return { kind: "unsupported" };
  const delta = change.insert.length - (change.to - change.from);
  try {
    return { kind: "value", path: best.path, value: JSON.parse(next.slice(best.start, best.end + delta)) };
  } catch {
    return { kind: "unsupported" };
  }
}

/** The member (key or index, value range) of the container at `open` whose value contains the change. */
function memberAt(text: string, open: number, change: TextChange): { segment: Segment; start: number; end: number } | undefined {
  const isObject = text.charCodeAt(open) === 0x7b;
  let i = skipSpace(text, open + 1);
  for (let index = 0; i < text.length; index++) {
    const c = text.charCodeAt(i);
    if (c === 0x7d || c === 0x5d) return undefined;
    let segment: Segment = index;
    if (isObject) {
      const keyEnd = skipString(text, i);
      if (change.from < keyEnd) return undefined; // the edit touches a key: re-parse the whole object
      const raw = text.slice(i + 1, keyEnd - 1);
      segment = raw.includes("\\") ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
      i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    }
    const end = skipValue(text, i);
    if (change.from < i) return undefined; // between members
    if (change.to <= end) return { segment, start: i, end };
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

/** Index of the first non-white-space character (RFC 8259 white space) at or after `i`. */
export function skipSpace(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
  }
  return i;
}

/** Index just past the string literal opening at `i` (a `"`); the text's length when it never closes. */
export function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return text.length;
}

/** Index just past the value starting at `i`. */
export function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c !== 0x7b && c !== 0x5b) {
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === 0x22) i = skipString(text, i) - 1;
    else if (d === 0x7b || d === 0x5b) depth++;
    else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}
