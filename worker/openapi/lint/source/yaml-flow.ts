/**
 * @module Locating a path inside a YAML flow collection (`{a: 1, b: [x, y]}`, possibly over several lines) from
 * its text alone, for the editor's outline locator (yaml-outline.ts), which reads block structure line by line
 * and would otherwise stop at the collection's start. A member is located at its key, an item at its value,
 * as the parser's locator does. Linear in the collection's length; malformed text ends the walk where it is.
 * @see https://yaml.org/spec/1.2.2/#74-flow-collection-styles
 */

import type { JsonPath } from "../types";

/** Where the walk got: the offset of the deepest segment found and how many segments were followed. */
export interface FlowLocation {
  offset: number;
  matched: number;
}

/**
 * Follows `path` into the flow collection starting at `start` (a `{` or `[`), reading no further than `end`.
 * `matched` is 0 when the first segment is not found (then `offset` is `start`).
 */
export function locateInFlow(text: string, start: number, end: number, path: JsonPath): FlowLocation {
  const scanner = new FlowScanner(text, end);
  let at = start;
  let found: FlowLocation = { offset: start, matched: 0 };
  for (let depth = 0; depth < path.length; depth++) {
    const open = text.charCodeAt(at);
    const hit = open === 0x7b ? scanner.member(at, String(path[depth])) : open === 0x5b ? scanner.item(at, path[depth]) : undefined;
    if (!hit) break;
    found = { offset: hit.report, matched: depth + 1 };
    at = hit.value;
  }
  return found;
}

interface Hit {
  /** Offset to report (a member's key, an item's value). */
  report: number;
  /** Offset of the value, for the next step. */
  value: number;
}

class FlowScanner {
  constructor(
    private readonly text: string,
    private readonly end: number,
  ) {}

  /** The member `key` of the flow map opening at `open`. Duplicates: the last wins, as in the data. */
  member(open: number, key: string): Hit | undefined {
    let i = this.space(open + 1);
    let hit: Hit | undefined;
    while (i < this.end) {
      const c = this.text.charCodeAt(i);
      if (c === 0x7d) break; // }
      if (c === 0x2c) {
        i = this.space(i + 1);
        continue;
      }
      const keyStart = i;
      const name = this.keyText(i);
      i = this.space(name.next);
      let valueStart = keyStart;
      if (this.text.charCodeAt(i) === 0x3a) {
        i = this.space(i + 1);
        valueStart = i;
        const c2 = this.text.charCodeAt(i);
        if (c2 !== 0x2c && c2 !== 0x7d) i = this.space(this.skipValue(i, true));
      }
      if (name.key === key) hit = { report: keyStart, value: valueStart };
      if (i === keyStart) return hit; // no progress: malformed
    }
    return hit;
  }

  /** Item `segment` of the flow sequence opening at `open`. */
  item(open: number, segment: string | number): Hit | undefined {
    const index = typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
    if (index < 0) return undefined;
    let i = this.space(open + 1);
    for (let n = 0; i < this.end; n++) {
      const c = this.text.charCodeAt(i);
      if (c === 0x5d) return undefined; // ]
      if (n === index) return { report: i, value: i };
      const before = i;
      i = this.space(this.skipValue(i, false));
      if (this.text.charCodeAt(i) === 0x2c) i = this.space(i + 1);
      if (i === before) return undefined;
    }
    return undefined;
  }

  /** A key: quoted or plain (up to `: `, `,`, `}`), with the offset past it. */
  private keyText(i: number): { key: string; next: number } {
    const c = this.text.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      const next = this.skipQuoted(i);
      const raw = this.text.slice(i, next);
      if (c === 0x27) return { key: raw.slice(1, -1).replace(/''/g, "'"), next };
      try {
        return { key: JSON.parse(raw) as string, next };
      } catch {
        return { key: raw.slice(1, -1), next };
      }
    }
    let j = i;
    while (j < this.end) {
      const d = this.text.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x0a) break;
      if (d === 0x3a && this.isSeparator(j + 1)) break;
      j++;
    }
    return { key: this.text.slice(i, j).trim(), next: j };
  }

  /** Past the value at `i`: a nested collection, a quoted or a plain scalar (or a `k: v` pair in a sequence). */
  private skipValue(i: number, inMap: boolean): number {
    const c = this.text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return this.skipCollection(i);
    if (c === 0x22 || c === 0x27) {
      const next = this.skipQuoted(i);
      const after = this.space(next);
      // A single-pair map in a sequence (`[a: 1]`): skip its value too.
      if (!inMap && this.text.charCodeAt(after) === 0x3a) return this.skipValue(this.space(after + 1), true);
      return next;
    }
    let j = i;
    while (j < this.end) {
      const d = this.text.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d) break;
      if (d === 0x23 && j > 0 && /\s/.test(this.text[j - 1])) break;
      if (!inMap && d === 0x3a && this.isSeparator(j + 1)) return this.skipValue(this.space(j + 1), true);
      j++;
    }
    return j;
  }

  /** Past the collection opening at `i`, counting brackets outside quotes and comments. */
  private skipCollection(i: number): number {
    let depth = 0;
    let j = i;
    while (j < this.end) {
      const c = this.text.charCodeAt(j);
      if (c === 0x22 || c === 0x27) {
        j = this.skipQuoted(j);
        continue;
      }
      if (c === 0x23 && j > 0 && /\s/.test(this.text[j - 1])) {
        j = this.lineEnd(j);
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return j;
  }

  private skipQuoted(i: number): number {
    const q = this.text.charCodeAt(i);
    let j = i + 1;
    while (j < this.end) {
      const d = this.text.charCodeAt(j);
      if (q === 0x22 && d === 0x5c) j += 2;
      else if (d === q) {
        if (q === 0x27 && this.text.charCodeAt(j + 1) === 0x27) j += 2;
        else return j + 1;
      } else j++;
    }
    return j;
  }

  /** Past white space, line breaks and comments. */
  private space(i: number): number {
    let j = i;
    while (j < this.end) {
      const c = this.text.charCodeAt(j);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) j++;
      else if (c === 0x23) j = this.lineEnd(j);
      else break;
    }
    return j;
  }

  private isSeparator(i: number): boolean {
    if (i >= this.end) return true;
    const c = this.text.charCodeAt(i);
    return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2c || c === 0x7d || c === 0x5d;
  }

  private lineEnd(i: number): number {
    const n = this.text.indexOf("\n", i);
    return n === -1 || n > this.end ? this.end : n;
  }
}
