/**
 * @module The block structure of a YAML text, read from its lines alone (indentation, `key:` and `- ` markers):
 * where a path starts, and which block entry contains a line. It serves the editor session, which must locate
 * problems and find the smallest re-parsable block after each keystroke without re-parsing a large document.
 * Inline flow collections are followed by a scanner of their own (yaml-flow.ts); complex keys and multi-line
 * keys are not descended into: a path stops at their start.
 */

import { lineAt } from "../../parse/line-index";
import type { JsonPath } from "../types";
import { locateInFlow } from "./yaml-flow";

const enum Kind {
  Blank,
  Entry,
  Item,
  Other,
}

/** A block being walked: its lines and the indentation of its entries or items. */
interface Block {
  kind: "map" | "seq";
  /** Line of the first entry/item and the first line past the block (0-based). */
  start: number;
  end: number;
  indent: number;
  /** For a map that begins on a `- ` line: the column of its first key on that line. */
  firstColumn?: number;
}

/** One step down a path: the line that starts it, and where its key (or item value) sits. */
export interface OutlineStep {
  segment: string | number;
  line: number;
  /** 0-based column of the key (map entry) or of the item's value (sequence item). */
  column: number;
  /** The entry's lines: [line, end). */
  end: number;
  indent: number;
  kind: "map" | "seq";
  /** The value starts on the entry's own line (scalar, flow collection or block scalar indicator). */
  inline: boolean;
}

export class YamlOutline {
  readonly lineStarts: number[];
  private readonly indents: Int32Array;
  private readonly kinds: Uint8Array;
  private readonly entries = new Map<string, Map<string, number>>();

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
    this.indents = new Int32Array(starts.length);
    this.kinds = new Uint8Array(starts.length);
    for (let l = 0; l < starts.length; l++) {
      const from = starts[l];
      const to = l + 1 < starts.length ? starts[l + 1] - 1 : text.length;
      let i = from;
      while (i < to && text.charCodeAt(i) === 0x20) i++;
      this.indents[l] = i - from;
      const c = text.charCodeAt(i);
      if (i >= to || c === 0x23 || c === 0x0d) this.kinds[l] = Kind.Blank;
      else if (c === 0x2d && (i + 1 >= to || text.charCodeAt(i + 1) === 0x20 || text.charCodeAt(i + 1) === 0x0d)) this.kinds[l] = Kind.Item;
      else if (text.startsWith("---", i) || text.startsWith("...", i)) this.kinds[l] = Kind.Blank;
      else this.kinds[l] = keyAt(text, i, to) ? Kind.Entry : Kind.Other;
    }
  }

  /** 0-based line of an offset. */
  lineOf(offset: number): number {
    return lineAt(this.lineStarts, offset);
  }

  /**
   * 1-based position of `path`: a member's key, an item's value; the nearest ancestor that can be located
   * otherwise (as the parser's locator does).
   */
  locate(path: JsonPath): { line: number; column: number } {
    const steps = this.walk(path);
    const last = steps[steps.length - 1];
    if (!last) {
      const first = this.firstContent(0, this.kinds.length);
      return { line: first + 1, column: this.indents[first] + 1 };
    }
    if (steps.length < path.length) {
      // The path goes on inside a flow collection (`schema: {type: integer}`, or one opening on the next line):
      // follow it there.
      const start = this.flowValueStart(last);
      const c = this.text.charCodeAt(start);
      if (c === 0x7b || c === 0x5b) {
        const end = last.end < this.lineStarts.length ? this.lineStarts[last.end] : this.text.length;
        const found = locateInFlow(this.text, start, end, path.slice(steps.length));
        if (found.matched > 0) {
          const line = this.lineOf(found.offset);
          return { line: line + 1, column: found.offset - this.lineStarts[line] + 1 };
        }
      }
    }
    return { line: last.line + 1, column: last.column + 1 };
  }

  /** Offset where a step's value starts: inline (after `key:`, or the item's value) or on its next content line. */
  private flowValueStart(step: OutlineStep): number {
    if (!step.inline) {
      const first = this.firstContent(step.line + 1, step.end);
      return first < step.end ? this.lineStarts[first] + this.indents[first] : -1;
    }
    const lineStart = this.lineStarts[step.line];
    if (step.kind === "seq") return lineStart + step.column;
    const parsed = keyAt(this.text, lineStart + step.column, this.lineEnd(step.line));
    let i = parsed ? parsed.valueStart : lineStart + step.column;
    while (this.text.charCodeAt(i) === 0x20 || this.text.charCodeAt(i) === 0x09) i++;
    return i;
  }

  /** The steps of `path` that the outline can follow (fewer than the path when it stops early). */
  walk(path: JsonPath): OutlineStep[] {
    const steps: OutlineStep[] = [];
    let block = this.rootBlock();
    for (const segment of path) {
      if (!block) break;
      const step = block.kind === "map" ? this.findEntry(block, String(segment)) : this.findItem(block, segment);
      if (!step) break;
      steps.push(step);
      block = step.inline && step.kind === "map" ? undefined : this.childBlock(step);
    }
    return steps;
  }

  /** The deepest entry or item whose lines contain `line`, as a path of steps from the root. */
  stepsAt(line: number): OutlineStep[] {
    const steps: OutlineStep[] = [];
    let block = this.rootBlock();
    while (block) {
      const step = this.stepContaining(block, line);
      if (!step) break;
      steps.push(step);
      block = step.inline && step.kind === "map" ? undefined : this.childBlock(step);
    }
    return steps;
  }

  private rootBlock(): Block | undefined {
    const first = this.firstContent(0, this.kinds.length);
    if (first >= this.kinds.length) return undefined;
    const kind = this.kinds[first];
    if (kind !== Kind.Entry && kind !== Kind.Item) return undefined;
    return { kind: kind === Kind.Item ? "seq" : "map", start: first, end: this.kinds.length, indent: this.indents[first] };
  }

  private firstContent(from: number, to: number): number {
    let l = from;
    while (l < to && this.kinds[l] === Kind.Blank) l++;
    return l;
  }

  /** Lines of the entry/item starting at `line` in `block`: up to the next line at the block's indentation or less. */
  private endOf(block: Block, line: number): number {
    for (let l = line + 1; l < block.end; l++) {
      if (this.kinds[l] === Kind.Blank) continue;
      const indent = this.indents[l];
      if (indent < block.indent) return l;
      if (indent === block.indent) {
        // A map entry's block-sequence value may sit at the entry's own indentation (`key:\n- a`).
        if (block.kind === "map" && this.kinds[l] === Kind.Item) continue;
        return l;
      }
    }
    return block.end;
  }

  private entryLines(block: Block): number[] {
    const lines: number[] = [];
    if (block.firstColumn !== undefined) lines.push(block.start);
    for (let l = block.firstColumn !== undefined ? block.start + 1 : block.start; l < block.end; l++) {
      if (this.kinds[l] === Kind.Blank || this.indents[l] !== block.indent) continue;
      if (block.kind === "map" ? this.kinds[l] === Kind.Entry : this.kinds[l] === Kind.Item) lines.push(l);
    }
    return lines;
  }

  private findEntry(block: Block, key: string): OutlineStep | undefined {
    const id = `${block.start}:${block.firstColumn ?? -1}:${block.indent}`;
    let map = this.entries.get(id);
    if (!map) {
      map = new Map();
      // Duplicates: the last one wins, as in the data.
      for (const line of this.entryLines(block)) {
        const column = line === block.start && block.firstColumn !== undefined ? block.firstColumn : this.indents[line];
        const parsed = keyAt(this.text, this.lineStarts[line] + column, this.lineEnd(line));
        if (parsed) map.set(parsed.key, line);
      }
      this.entries.set(id, map);
    }
    const line = map.get(key);
    return line === undefined ? undefined : this.entryStep(block, line, key);
  }

  private entryStep(block: Block, line: number, segment: string | number): OutlineStep {
    const column = line === block.start && block.firstColumn !== undefined ? block.firstColumn : this.indents[line];
    const lineEnd = this.lineEnd(line);
    const parsed = keyAt(this.text, this.lineStarts[line] + column, lineEnd);
    const rest = parsed ? this.text.slice(parsed.valueStart, lineEnd).trim() : "";
    const inline = rest !== "" && !rest.startsWith("#");
    return { segment, line, column, end: this.endOf(block, line), indent: block.indent, kind: "map", inline };
  }

  private findItem(block: Block, segment: string | number): OutlineStep | undefined {
    const index = typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
    const line = this.entryLines(block)[index];
    return line === undefined ? undefined : this.itemStep(block, line, index);
  }

  private itemStep(block: Block, line: number, index: number): OutlineStep {
    const from = this.lineStarts[line] + block.indent + 1;
    const lineEnd = this.lineEnd(line);
    let i = from;
    while (i < lineEnd && this.text.charCodeAt(i) === 0x20) i++;
    const rest = this.text.slice(i, lineEnd).trim();
    const inline = rest !== "" && !rest.startsWith("#");
    return { segment: index, line, column: inline ? i - this.lineStarts[line] : block.indent, end: this.endOf(block, line), indent: block.indent, kind: "seq", inline };
  }

  private stepContaining(block: Block, line: number): OutlineStep | undefined {
    const lines = this.entryLines(block);
    let found = -1;
    for (let i = 0; i < lines.length && lines[i] <= line; i++) found = i;
    if (found < 0) return undefined;
    const start = lines[found];
    if (block.kind === "map") {
      const column = start === block.start && block.firstColumn !== undefined ? block.firstColumn : this.indents[start];
      const parsed = keyAt(this.text, this.lineStarts[start] + column, this.lineEnd(start));
      if (!parsed) return undefined;
      const step = this.entryStep(block, start, parsed.key);
      return line < step.end ? step : undefined;
    }
    const step = this.itemStep(block, start, found);
    return line < step.end ? step : undefined;
  }

  /** The block holding an entry's or item's value (a map or a sequence on the following lines, or inline map). */
  private childBlock(step: OutlineStep): Block | undefined {
    if (step.kind === "seq") {
      // `- key: value` starts a map on the item's line.
      const lineStart = this.lineStarts[step.line];
      const from = lineStart + step.indent + 1;
      let i = from;
      const lineEnd = this.lineEnd(step.line);
      while (i < lineEnd && this.text.charCodeAt(i) === 0x20) i++;
      if (i < lineEnd && this.text.charCodeAt(i) !== 0x23) {
        if (this.text.charCodeAt(i) === 0x2d && (i + 1 >= lineEnd || this.text.charCodeAt(i + 1) === 0x20)) {
          return { kind: "seq", start: step.line, end: step.end, indent: i - lineStart, firstColumn: i - lineStart };
        }
        if (keyAt(this.text, i, lineEnd)) return { kind: "map", start: step.line, end: step.end, indent: i - lineStart, firstColumn: i - lineStart };
        return undefined;
      }
    }
    const first = this.firstContent(step.line + 1, step.end);
    if (first >= step.end) return undefined;
    const kind = this.kinds[first];
    if (kind !== Kind.Entry && kind !== Kind.Item) return undefined;
    return { kind: kind === Kind.Item ? "seq" : "map", start: first, end: step.end, indent: this.indents[first] };
  }

  private lineEnd(line: number): number {
    const next = this.lineStarts[line + 1];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 0x0d) end--;
    return end;
  }
}

/** A `key:` at `from` (a plain, single- or double-quoted key followed by a colon and a space or the end). */
export function keyAt(text: string, from: number, to: number): { key: string; valueStart: number } | undefined {
  const c = text.charCodeAt(from);
  if (c === 0x22 || c === 0x27) {
    let i = from + 1;
    for (; i < to; i++) {
      const d = text.charCodeAt(i);
      if (c === 0x22 && d === 0x5c) i++;
      else if (d === c) {
        if (c === 0x27 && text.charCodeAt(i + 1) === 0x27) i++;
        else break;
      }
    }
    if (i >= to) return undefined;
    let j = i + 1;
    while (j < to && text.charCodeAt(j) === 0x20) j++;
    if (text.charCodeAt(j) !== 0x3a || !(j + 1 >= to || text.charCodeAt(j + 1) === 0x20)) return undefined;
    const raw = text.slice(from, i + 1);
    let key: string;
    if (c === 0x27) key = raw.slice(1, -1).replace(/''/g, "'");
    else {
      try {
        key = JSON.parse(raw) as string;
      } catch {
        key = raw.slice(1, -1);
      }
    }
    return { key, valueStart: j + 1 };
  }
  if (c === 0x3f || c === 0x5b || c === 0x7b || c === 0x26 || c === 0x2a || c === 0x21 || c === 0x7c || c === 0x3e || c === 0x23) return undefined;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i);
    if (d === 0x3a && (i + 1 >= to || text.charCodeAt(i + 1) === 0x20 || text.charCodeAt(i + 1) === 0x09)) {
      if (i === from) return undefined;
      return { key: text.slice(from, i).trimEnd(), valueStart: i + 1 };
    }
    if (d === 0x23 && text.charCodeAt(i - 1) === 0x20) return undefined;
  }
  return undefined;
}
