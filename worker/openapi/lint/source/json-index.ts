/**
 * @module Source positions of a JSON text in one pass: every container's members (key offsets, child containers) in
 * flat typed arrays, looked up by path afterwards. The parse module's lazy locator rescans a container each
 * time a path enters it for the first time, which re-reads a 13 MB file once per level; linting locates
 * thousands of problems, so it indexes everything once instead (about 8 bytes per member).
 */

import { lineAt } from "../../parse/line-index";
import type { JsonPath } from "../types";

/** Positions of a JSON text; built by {@link indexJson} from text that JSON.parse accepted. */
export class JsonIndex {
  private maps = new Map<number, Map<string, number>>();

  constructor(
    private readonly text: string,
    /** Per container: index of its first member in the member arrays; `containerStart[c + 1]` ends it. */
    private readonly containerStart: Int32Array,
    private readonly containerIsObject: Uint8Array,
    /** Per member: offset of its key (objects) or value (arrays), and its child container or -1. */
    private readonly keyAt: Int32Array,
    private readonly childOf: Int32Array,
    private readonly lineStarts: Int32Array,
    private readonly rootOffset: number,
  ) {}

  /**
   * 1-based position of the node at `path`: its key for an object member, its value for an array item and the
   * root. A missing path yields its nearest existing ancestor.
   */
  locate(path: JsonPath): { line: number; column: number } {
    let container = this.childOfRoot();
    let offset = this.rootOffset;
    for (const segment of path) {
      if (container < 0) break;
      const member = this.member(container, segment);
      if (member < 0) break;
      offset = this.keyAt[member];
      container = this.childOf[member];
    }
    return this.position(offset);
  }

  private childOfRoot(): number {
    return this.containerStart.length > 1 ? 0 : -1;
  }

  private member(container: number, segment: string | number): number {
    const first = this.containerStart[container];
    const end = this.containerStart[container + 1];
    if (!this.containerIsObject[container]) {
      const i = typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
      return i >= 0 && first + i < end ? first + i : -1;
    }
    const key = String(segment);
    if (end - first > 16) {
      let map = this.maps.get(container);
      if (!map) {
        map = new Map();
        // First occurrence wins, as in Spectral's JSON locator.
        for (let m = end - 1; m >= first; m--) map.set(this.keyText(m), m);
        this.maps.set(container, map);
      }
      return map.get(key) ?? -1;
    }
    for (let m = first; m < end; m++) if (this.keyText(m) === key) return m;
    return -1;
  }

  private keyText(member: number): string {
    const start = this.keyAt[member] + 1;
    let i = start;
    let escaped = false;
    for (; i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 0x5c) {
        escaped = true;
        i++;
      } else if (c === 0x22) break;
    }
    return escaped ? (JSON.parse(this.text.slice(start - 1, i + 1)) as string) : this.text.slice(start, i);
  }

  private position(offset: number): { line: number; column: number } {
    const line = lineAt(this.lineStarts, offset);
    return { line: line + 1, column: offset - this.lineStarts[line] + 1 };
  }
}

/** Indexes valid JSON text (BOM already removed). Iterative: no recursion, whatever the nesting. */
export function indexJson(text: string): JsonIndex {
  let keyAt = new Int32Array(4096);
  let childOf = new Int32Array(4096);
  let parentOf = new Int32Array(4096);
  let members = 0;
  const isObject: number[] = [];
  const stack: number[] = []; // open containers
  const lines: number[] = [0];
  let expectKey = false;
  let key = -1;
  let rootOffset = -1;
  const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
    const b = new Int32Array(a.length * 2);
    b.set(a);
    return b;
  };
  const value = (offset: number): number => {
    if (rootOffset < 0) rootOffset = offset;
    if (!stack.length) return -1;
    if (members === keyAt.length) {
      keyAt = grow(keyAt);
      childOf = grow(childOf);
      parentOf = grow(parentOf);
    }
    const parent = stack[stack.length - 1];
    const m = members++;
    keyAt[m] = isObject[parent] ? key : offset;
    childOf[m] = -1;
    parentOf[m] = parent;
    return m;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) lines.push(i + 1);
    else if (c === 0x22) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (expectKey) {
        key = start;
        expectKey = false;
      } else value(start);
    } else if (c === 0x7b || c === 0x5b) {
      const m = value(i);
      const id = isObject.length;
      isObject.push(c === 0x7b ? 1 : 0);
      if (m >= 0) childOf[m] = id;
      stack.push(id);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) expectKey = isObject[stack[stack.length - 1]] === 1;
    else if (c !== 0x3a && c !== 0x20 && c !== 0x09 && c !== 0x0d) {
      value(i); // a number, true, false or null
      while (i + 1 < text.length && !DELIMITER[text.charCodeAt(i + 1)]) i++;
    }
  }
  // Counting sort by container (stable): each container's members become contiguous, in source order.
  const containers = isObject.length;
  const starts = new Int32Array(containers + 1);
  for (let m = 0; m < members; m++) starts[parentOf[m] + 1]++;
  for (let c = 0; c < containers; c++) starts[c + 1] += starts[c];
  const next = starts.slice(0, containers);
  const k = new Int32Array(members);
  const ch = new Int32Array(members);
  for (let m = 0; m < members; m++) {
    const at = next[parentOf[m]]++;
    k[at] = keyAt[m];
    ch[at] = childOf[m];
  }
  return new JsonIndex(text, starts, Uint8Array.from(isObject), k, ch, Int32Array.from(lines), Math.max(rootOffset, 0));
}

const DELIMITER: boolean[] = [];
for (const ch of ",}] \t\r\n:") DELIMITER[ch.charCodeAt(0)] = true;
