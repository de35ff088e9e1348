/**
 * @module A JSON text's structure kept in step with edits: the editor's one JSON index, used by the lint session
 * (positions of problems, the edited value) and by the Visual view's model (members, values and lines read on
 * demand, `client/editor/json-model.ts`), for an editing session on a large file (GitHub's 13 MB description). A container gets a member index the first time a lookup enters it (only containers on the paths
 * of located problems and edits are ever indexed, so memory follows those, not the file); offsets are relative
 * to the container's own start, so an edit inside one member shifts only the later members of each enclosing
 * container (a few thousand numbers), never re-scans the text. Line starts are kept too, so a path's
 * line/column costs a lookup.
 *
 * It answers what {@link reparseJsonBlock} and the one-pass {@link indexJson} answer on a fresh text (the
 * innermost value an edit falls in; a path's position, the first of duplicate keys as Spectral's locator), in
 * time proportional to the edited value and the path's depth instead of to the file.
 */

import { lineAt } from "../../parse/line-index";
import type { Segment } from "../rule";
import type { JsonPath } from "../types";
import { skipSpace, skipString, skipValue, type JsonBlockOutcome } from "./json-block";
import { PieceText } from "./piece-text";
import type { TextChange } from "./yaml-block";

/** A member of a container's index (an object's key and value, or an array item). */
export interface Member {
  segment: Segment;
  /** Offsets relative to the enclosing container's `{`/`[`: the key's opening quote (objects; the value for arrays), the value's start and end. */
  key: number;
  start: number;
  end: number;
  /** The value's own index, once built. */
  child?: Container;
}

interface Container {
  isObject: boolean;
  members: Member[];
  /** Object keys → member (first occurrence), built on first keyed lookup. */
  byKey?: Map<string, number>;
  /** Some key occurs twice: an edit inside is re-parsed with the whole container's parent (JSON.parse keeps the last). */
  duplicateKeys?: boolean;
}

/**
 * A value of the current text as {@link JsonLive} reads it: `[from, to)` covers it exactly (quotes included for a
 * string). Valid until the next {@link JsonLive.reparse}.
 */
export interface JsonNode {
  kind: "object" | "array" | "scalar";
  from: number;
  to: number;
  /** Its member in the parent's index (none for the root): where its own index is kept. */
  member?: Member;
}

/** An object member: its key (decoded), the offset of the key's opening quote, and its value. */
export interface JsonMember {
  key: string;
  keyFrom: number;
  value: JsonNode;
}

/** A JSON text (that JSON.parse accepted) with its structure, updated by {@link JsonLive.reparse}. */
export class JsonLive {
  private rootContainer: Container | undefined;
  private rootStart: number;
  private rootEnd: number;
  private lineStarts: number[];
  /** Offset of the first character after a byte order mark (positions are reported as if it were absent). */
  private readonly base: number;

  /** The current text, edited chunk by chunk (never rebuilt whole per edit). */
  private readonly doc: PieceText;

  constructor(text: string) {
    this.doc = new PieceText(text);
    this.base = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.rootStart = skipSpace(text, this.base);
    this.rootEnd = trimEnd(text);
    this.lineStarts = lineStartsOf(text, 0);
    this.lineStarts.unshift(0);
    // The root's members now, while the text is one flat string.
    if (this.isContainer(this.rootStart)) this.rootContainer = scan(text, this.rootStart);
  }

  /** The current text (joined on first use after an edit). */
  get text(): string {
    return this.doc.toString();
  }

  /** `text.slice(from, to)` of the current text without joining it. */
  slice(from: number, to: number): string {
    return this.doc.slice(from, to);
  }

  /**
   * 1-based position of the node at `path` (its key for an object member, its value for an array item and the
   * root); a missing path yields its nearest existing ancestor, as {@link indexJson}'s `locate`.
   */
  locate(path: JsonPath): { line: number; column: number } {
    let offset = this.rootStart;
    let start = this.rootStart;
    let end = this.rootEnd;
    let index = this.isContainer(start) ? this.rootIndex() : undefined;
    for (const segment of path) {
      if (!index) break;
      const at = find(index, segment);
      if (at < 0) break;
      const m = index.members[at];
      offset = start + m.key;
      const childStart = start + m.start;
      end = start + m.end;
      index = this.isContainer(childStart) ? this.childIndex(m, childStart, end) : undefined;
      start = childStart;
    }
    const line = lineAt(this.lineStarts, offset);
    return { line: line + 1, column: offset - this.lineStarts[line] + 1 - (line === 0 ? this.base : 0) };
  }

  /** The 0-based line of `offset` in the current text. */
  lineOf(offset: number): number {
    return lineAt(this.lineStarts, offset);
  }

  /** The 1-based line of `offset` in the current text. */
  line(offset: number): number {
    return lineAt(this.lineStarts, offset) + 1;
  }

  /** The 0-based column of `offset` in its line (UTF-16 code units from the line's start). */
  column(offset: number): number {
    return offset - this.lineStarts[lineAt(this.lineStarts, offset)];
  }

  /** The top-level value. */
  get root(): JsonNode {
    return { kind: this.kindAt(this.rootStart), from: this.rootStart, to: this.rootEnd };
  }

  /** An object's members in source order, duplicate keys kept; none for an array or a scalar. */
  members(node: JsonNode): JsonMember[] {
    if (node.kind !== "object") return [];
    return this.indexOf(node).members.map((m) => ({ key: String(m.segment), keyFrom: node.from + m.key, value: this.nodeOf(node.from, m) }));
  }

  /** An array's items in order; none for an object or a scalar. */
  items(node: JsonNode): JsonNode[] {
    if (node.kind !== "array") return [];
    return this.indexOf(node).members.map((m) => this.nodeOf(node.from, m));
  }

  /** The value of the first member named `key` (as Spectral's locator and the `yaml` reader), if `node` is an object. */
  get(node: JsonNode | undefined, key: string): JsonNode | undefined {
    if (node?.kind !== "object") return undefined;
    const index = this.indexOf(node);
    const at = find(index, key);
    return at < 0 ? undefined : this.nodeOf(node.from, index.members[at]);
  }

  /** The node at `path` (first member of a name; array items by `Number(segment)`), or undefined. */
  at(path: readonly Segment[]): JsonNode | undefined {
    let node: JsonNode | undefined = this.root;
    for (const segment of path) {
      if (node?.kind === "object") node = this.get(node, String(segment));
      else if (node?.kind === "array") {
        const m: Member | undefined = this.indexOf(node).members[Number(segment)];
        node = m ? this.nodeOf(node.from, m) : undefined;
      } else return undefined;
    }
    return node;
  }

  /** A scalar's value (string, number, boolean or null). */
  scalar(node: JsonNode): unknown {
    const raw = this.doc.slice(node.from, node.to);
    if (raw.charCodeAt(0) === 0x22 && !raw.includes("\\")) return raw.slice(1, -1);
    return JSON.parse(raw);
  }

  private kindAt(offset: number): JsonNode["kind"] {
    const c = this.doc.charCodeAt(offset);
    return c === 0x7b ? "object" : c === 0x5b ? "array" : "scalar";
  }

  /** The node of member `m` of the container opening at `start`. */
  private nodeOf(start: number, m: Member): JsonNode {
    return { kind: this.kindAt(start + m.start), from: start + m.start, to: start + m.end, member: m };
  }

  /** The member index of a container node, built on first use. */
  private indexOf(node: JsonNode): Container {
    return node.member ? this.childIndex(node.member, node.from, node.to) : this.rootIndex();
  }

  /**
   * Applies `change` (offsets into the current text) when the innermost value it falls in still parses on its
   * own: returns that value and its path, and moves the index, line starts and text to the new text (no
   * whole-text copy: a keystroke costs the edited value and the enclosing containers' member lists). Returns
   * `unsupported` (and changes nothing) when it does not, or when the edit touches a key, a separator or the
   * root; the caller then parses the whole text and starts a new JsonLive.
   */
  reparse(change: TextChange): JsonBlockOutcome {
    const chain: { index: Container; start: number; member: number }[] = [];
    let start = this.rootStart;
    let end = this.rootEnd;
    let index: Container | undefined;
    const path: Segment[] = [];
    let best: { start: number; end: number; depth: number } | undefined;
    for (;;) {
      const c = this.doc.charCodeAt(start);
      const delimited = c === 0x7b || c === 0x5b || c === 0x22;
      const inside = delimited ? start < change.from && change.to < end : start <= change.from && change.to <= end;
      if (!inside) break;
      best = { start, end, depth: path.length };
      if (c !== 0x7b && c !== 0x5b) break;
      index = chain.length === 0 ? this.rootIndex() : this.childIndex(chain[chain.length - 1].index.members[chain[chain.length - 1].member], start, end);
      if (index.duplicateKeys) break;
      const at = containing(index, start, change);
      if (at < 0) break;
      const m = index.members[at];
      chain.push({ index, start, member: at });
      path.push(m.segment);
      start += m.start;
      end = chain[chain.length - 1].start + m.end;
    }
    if (!best || best.depth === 0) return { kind: "unsupported" };
    const delta = change.insert.length - (change.to - change.from);
    let value: unknown;
    try {
      value = JSON.parse(this.doc.slice(best.start, change.from) + change.insert + this.doc.slice(change.to, best.end));
    } catch {
      return { kind: "unsupported" };
    }
    // Ancestors of the re-parsed value: its member grows by `delta`, later members move by `delta`.
    const ancestors = chain.slice(0, best.depth);
    for (const { index: container, member } of ancestors) {
      const members = container.members;
      members[member].end += delta;
      for (let i = member + 1; i < members.length; i++) {
        members[i].key += delta;
        members[i].start += delta;
        members[i].end += delta;
      }
    }
    // The re-parsed value itself is re-indexed when next entered.
    const own = ancestors[ancestors.length - 1];
    delete own.index.members[own.member].child;
    this.rootEnd += delta;
    this.moveLines(change, delta);
    this.doc.apply(change);
    return { kind: "value", path: path.slice(0, best.depth), value };
  }

  private moveLines(change: TextChange, delta: number): void {
    const starts = this.lineStarts;
    // Line starts in (from, to] were removed with the text; those after `to` move by `delta`.
    const first = lineAt(starts, change.from) + 1;
    let last = first;
    while (last < starts.length && starts[last] <= change.to) last++;
    const added = lineStartsOf(change.insert, change.from);
    starts.splice(first, last - first, ...added);
    for (let i = first + added.length; i < starts.length; i++) starts[i] += delta;
  }

  private isContainer(offset: number): boolean {
    const c = this.doc.charCodeAt(offset);
    return c === 0x7b || c === 0x5b;
  }

  private rootIndex(): Container {
    return (this.rootContainer ??= scan(this.doc.slice(this.rootStart, this.rootEnd), 0));
  }

  /** The index of `m`'s value (a container from `start` to `end`), built on first use. */
  private childIndex(m: Member, start: number, end: number): Container {
    return (m.child ??= scan(this.doc.slice(start, end), 0));
  }
}

/** The member of `index` (at absolute `start`) whose value contains `change`, or -1 (key, separator, between members). */
function containing(index: Container, start: number, change: TextChange): number {
  const members = index.members;
  let lo = 0;
  let hi = members.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (start + members[mid].key <= change.from) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (at < 0) return -1;
  const m = members[at];
  return start + m.start <= change.from && change.to <= start + m.end ? at : -1;
}

/** The member for `segment` (first occurrence of a key; an array index), or -1. */
function find(index: Container, segment: Segment): number {
  if (!index.isObject) {
    const i = typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
    return i >= 0 && i < index.members.length ? i : -1;
  }
  if (!index.byKey) {
    index.byKey = new Map();
    for (let i = index.members.length - 1; i >= 0; i--) index.byKey.set(String(index.members[i].segment), i);
  }
  return index.byKey.get(String(segment)) ?? -1;
}

/** The members of the container opening at `open`; offsets relative to `open`. */
function scan(text: string, open: number): Container {
  const isObject = text.charCodeAt(open) === 0x7b;
  const members: Member[] = [];
  const seen = isObject ? new Set<string>() : undefined;
  let duplicateKeys = false;
  let i = skipSpace(text, open + 1);
  for (let n = 0; i < text.length; n++) {
    const c = text.charCodeAt(i);
    if (c === 0x7d || c === 0x5d) break;
    let segment: Segment = n;
    const key = i;
    if (isObject) {
      const keyEnd = skipString(text, i);
      const raw = text.slice(i + 1, keyEnd - 1);
      segment = raw.includes("\\") ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
      if (seen!.has(segment)) duplicateKeys = true;
      seen!.add(segment);
      i = skipSpace(text, skipSpace(text, keyEnd) + 1);
    }
    const end = skipValue(text, i);
    members.push({ segment, key: key - open, start: i - open, end: end - open });
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipSpace(text, i + 1);
  }
  return duplicateKeys ? { isObject, members, duplicateKeys } : { isObject, members };
}

/** Offsets just after each line feed in `text`, plus `shift`. */
function lineStartsOf(text: string, shift: number): number[] {
  const out: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) out.push(i + 1 + shift);
  return out;
}

function trimEnd(text: string): number {
  let i = text.length;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i--;
  }
  return i;
}
