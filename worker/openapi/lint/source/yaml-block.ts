/**
 * @module Re-parses only the YAML block an edit falls in: the innermost map entry or sequence item whose lines
 * contain the change, when doing so is sound. Sound means: the change leaves the block's first line (its key or
 * `- ` marker) and its indentation structure alone, so the text outside the block is unchanged and still ends
 * it; no anchor, alias or merge key is involved (they tie the block to text elsewhere); and the block alone
 * parses as one entry with the same key. Otherwise the caller re-parses the whole document.
 */

import { isAlias, isNode, parseDocument, visit } from "yaml";
import type { Segment } from "../rule";
import { YamlOutline, type OutlineStep } from "./yaml-outline";

export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/** A block of the current text that failed to parse, to retry on the next edit inside it. */
export interface DirtyBlock {
  steps: OutlineStep[];
}

export type BlockOutcome =
  | { kind: "value"; path: Segment[]; value: unknown; steps: OutlineStep[] }
  | { kind: "error"; message: string; offset: number; steps: OutlineStep[] }
  | { kind: "unsupported"; reason: string };

const YAML_OPTIONS = { version: "1.2", schema: "core", merge: true, logLevel: "silent", uniqueKeys: true } as const;
const REFERENCE_TOKENS = /(?:^|[\s[{,])(?:&[^\s,[\]{}]|\*[^\s,[\]{}]|<<\s*:)/m;

/**
 * Re-parses the block of `oldOutline`'s text that `change` falls in, within `newOutline`'s text. `dirty` is the
 * block of the previous failed attempt: then only an edit inside it can be handled here.
 */
export function reparseBlock(oldOutline: YamlOutline, newOutline: YamlOutline, change: TextChange, dirty?: DirtyBlock): BlockOutcome {
  const lineA = oldOutline.lineOf(change.from);
  const lineB = oldOutline.lineOf(change.to);
  const candidates = dirty ? [dirty.steps] : prefixes(oldOutline.stepsAt(lineA));
  const steps = candidates.find((s) => fits(oldOutline, s[s.length - 1], change, lineA, lineB));
  if (!steps) return { kind: "unsupported", reason: "no block contains the edit" };
  const block = steps[steps.length - 1];
  // An anchor on an enclosing entry (`base: &base`) ties its whole value, the block included, to its aliases.
  for (const ancestor of steps.slice(0, -1)) {
    if (REFERENCE_TOKENS.test(lineText(oldOutline, ancestor.line))) return { kind: "unsupported", reason: "anchor on the path" };
  }
  const delta = countLines(change.insert) - (lineB - lineA);
  const end = block.end + delta;
  if (!sameShape(oldOutline, newOutline, block, end)) return { kind: "unsupported", reason: "block structure changed" };
  const from = newOutline.lineStarts[block.line];
  const to = end < newOutline.lineStarts.length ? newOutline.lineStarts[end] : newOutline.text.length;
  const oldText = oldOutline.text.slice(oldOutline.lineStarts[block.line], block.end < oldOutline.lineStarts.length ? oldOutline.lineStarts[block.end] : oldOutline.text.length);
  if (REFERENCE_TOKENS.test(oldText) && hasReferences(oldText)) return { kind: "unsupported", reason: "anchors in the old block" };
  let text = newOutline.text.slice(from, to);
  // The first entry of a `- key: value` item: blank the dash so that the block reads as that map entry alone.
  if (block.kind === "map" && block.column > 0 && /^ *- /.test(text.slice(0, block.column))) text = " ".repeat(block.column) + text.slice(block.column);
  const doc = parseDocument(text, YAML_OPTIONS);
  const newSteps = [...steps.slice(0, -1), { ...block, end }];
  const fatal = doc.errors[0];
  if (fatal) {
    if (fatal.code === "DUPLICATE_KEY") return { kind: "unsupported", reason: "duplicate key" };
    return { kind: "error", message: fatal.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""), offset: from + fatal.pos[0], steps: newSteps };
  }
  if (REFERENCE_TOKENS.test(text) && hasReferences(text)) return { kind: "unsupported", reason: "anchors in the new block" };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch {
    return { kind: "unsupported", reason: "block does not convert" };
  }
  const path = steps.map((s) => s.segment);
  if (block.kind === "map") {
    if (data === null || typeof data !== "object" || Array.isArray(data)) return { kind: "unsupported", reason: "not a map entry" };
    const keys = Object.keys(data);
    if (keys.length !== 1 || keys[0] !== block.segment) return { kind: "unsupported", reason: "key changed" };
    return { kind: "value", path, value: (data as Record<string, unknown>)[keys[0]], steps: newSteps };
  }
  if (!Array.isArray(data) || data.length !== 1) return { kind: "unsupported", reason: "not one item" };
  return { kind: "value", path, value: data[0], steps: newSteps };
}

/** From innermost to outermost: [a, b, c] → [a,b,c], [a,b], [a]. */
function prefixes(steps: OutlineStep[]): OutlineStep[][] {
  const out: OutlineStep[][] = [];
  for (let n = steps.length; n > 0; n--) out.push(steps.slice(0, n));
  return out;
}

/** The change lies inside the block, past its key (or `- ` marker) on the first line. */
function fits(outline: YamlOutline, step: OutlineStep, change: TextChange, lineA: number, lineB: number): boolean {
  if (lineA < step.line || lineB >= step.end) return false;
  if (lineA > step.line) return true;
  const lineStart = outline.lineStarts[step.line];
  const text = outline.text;
  if (step.kind === "seq") return change.from > lineStart + step.indent + 1;
  // Past the key's colon.
  let colon = lineStart + step.column;
  const first = text.charCodeAt(colon);
  if (first === 0x22 || first === 0x27) {
    colon++;
    while (colon < text.length && text.charCodeAt(colon) !== first) colon += text.charCodeAt(colon) === 0x5c ? 2 : 1;
  }
  colon = text.indexOf(":", colon);
  return colon >= 0 && change.from > colon;
}

/** The block's first line still opens the same entry, and nothing inside it dedents to its level or past it. */
function sameShape(oldOutline: YamlOutline, newOutline: YamlOutline, block: OutlineStep, end: number): boolean {
  if (end <= block.line || end > newOutline.lineStarts.length) return false;
  const before = firstLineHead(oldOutline, block);
  const after = firstLineHead(newOutline, block);
  if (before !== after) return false;
  for (let l = block.line + 1; l < end; l++) {
    const line = lineText(newOutline, l);
    const trimmed = line.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const indent = line.length - trimmed.length;
    if (indent > block.indent) continue;
    if (indent === block.indent && block.kind === "map" && /^-( |$)/.test(trimmed)) continue;
    return false;
  }
  return true;
}

/** The first line up to and including its key's colon (or the `- ` marker). */
function firstLineHead(outline: YamlOutline, block: OutlineStep): string {
  const line = lineText(outline, block.line);
  if (block.kind === "seq") return line.slice(0, block.indent + 1);
  const colon = line.indexOf(":", block.column);
  return colon < 0 ? line : line.slice(0, colon + 1);
}

function lineText(outline: YamlOutline, line: number): string {
  const start = outline.lineStarts[line];
  const next = outline.lineStarts[line + 1];
  return outline.text.slice(start, next === undefined ? outline.text.length : next - 1).replace(/\r$/, "");
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Anchors, aliases or merge keys in a YAML text (the regular expression pre-filters; this is exact). */
function hasReferences(text: string): boolean {
  const doc = parseDocument(text, { ...YAML_OPTIONS, uniqueKeys: false });
  let found = false;
  visit(doc, {
    Node(_, node) {
      if (isAlias(node) || (isNode(node) && node.anchor)) found = true;
      return found ? visit.BREAK : undefined;
    },
    Pair(_, pair) {
      const key = (pair.key as { value?: unknown } | null)?.value;
      if (key === "<<" || (typeof key === "symbol" && key.description === "<<")) found = true;
      return found ? visit.BREAK : undefined;
    },
  });
  return found;
}
