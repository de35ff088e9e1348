/**
 * @module Structural edits (add, remove, rename, replace a subtree) through the `yaml` Document API, written
 * back as one text change confined to the smallest enclosing collection.
 *
 * The Document keeps comments and key order; re-printing only the collection that changed keeps the rest of
 * the file byte for byte even where its formatting differs from what `yaml` would print. The result is checked
 * by parsing it again (data as intended, no comment lost); when the local re-print fails that check, the whole
 * document is printed instead, which the library guarantees keeps comments.
 */
import { Document, isCollection, isMap, isScalar, isSeq, parseDocument, visit, YAMLMap, YAMLSeq } from "yaml";
import type { Node, ToStringOptions } from "yaml";
import type { Segment } from "./pointer";
import type { StructuralOp, TextChange } from "./protocol";
import { minimalChange } from "./text-changes";
import { columnOf, detectIndent, detectIndentSeq, MAX_ALIAS_COUNT, nodeAt, parseSource } from "./yaml-source";
import { jsonOfNode } from "./json-print";

export type StructuralResult = { ok: true; change: TextChange; text: string } | { ok: false; message: string };

/** Applies `op` to `text` (YAML or JSON) and returns the change. Never throws. */
export function applyStructuralEdit(text: string, op: StructuralOp): StructuralResult {
  const source = parseSource(text);
  if (source.error) return { ok: false, message: `Fix the syntax error on line ${source.error.line} first: ${source.error.message}` };
  const { doc } = source;
  const anchorPath = enclosingCollection(doc, op);
  const addsEntry = addsToBlockCollection(doc, op);
  try {
    mutate(doc, op);
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  const expected = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  const comments = commentsOf(doc);
  const json = source.format === "json";
  const options = printOptions(text);
  const candidates = [() => (addsEntry && !json ? inserted(text, doc, op, options) : undefined), () => local(text, doc, anchorPath, json, options), () => whole(text, doc, json, options)];
  for (const attempt of candidates) {
    const next = attempt();
    if (next !== undefined && verify(next, expected, comments)) return { ok: true, change: minimalChange(text, next), text: next };
  }
  return { ok: false, message: "The edit could not be written back without changing other content" };
}

function mutate(doc: Document, op: StructuralOp): void {
  if (op.path.length === 0) throw new Error("Refusing to replace the whole document");
  switch (op.op) {
    case "set": {
      // A flow collection replaced by a collection stays in flow style (`[a, b]` edited in a form stays inline);
      // an empty one (`{}`, `[]`: a placeholder) takes the block style of the file.
      const before = nodeAt(doc, op.path);
      const node = doc.createNode(op.value);
      if (isCollection(before) && before.flow && before.items.length > 0 && isCollection(node)) node.flow = true;
      doc.setIn(op.path, node);
      return;
    }
    case "append":
      if (nodeAt(doc, op.path) === undefined) doc.setIn(op.path, doc.createNode([op.value]));
      else doc.addIn(op.path, doc.createNode(op.value));
      return;
    case "delete":
      if (!doc.deleteIn(op.path)) throw new Error(`Nothing to delete at ${op.path.join(".")}`);
      return;
    case "rename": {
      const parent = nodeAt(doc, op.path.slice(0, -1));
      const last = String(op.path[op.path.length - 1]);
      if (!isMap(parent)) throw new Error("Only keys of a mapping can be renamed");
      if (parent.items.some((p) => isScalar(p.key) && String(p.key.value) === op.key)) throw new Error(`"${op.key}" already exists`);
      const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === last);
      if (!pair || !isScalar(pair.key)) throw new Error(`No key "${last}" to rename`);
      pair.key.value = op.key;
      return;
    }
  }
}

/** The path of the deepest existing collection that the edit changes a direct child of. */
function enclosingCollection(doc: Document, op: StructuralOp): Segment[] {
  let path = op.path.slice(0, -1);
  while (path.length > 0 && !isCollection(nodeAt(doc, path))) path = path.slice(0, -1);
  if (op.op === "append" && isSeq(nodeAt(doc, op.path))) path = op.path;
  return path;
}

/**
 * Whether `op` adds a new key to a block mapping or a new item to a block sequence: then only the new entry is
 * printed and inserted after the last one, and its siblings stay byte for byte (whatever their flow style).
 */
function addsToBlockCollection(doc: Document, op: StructuralOp): boolean {
  if (op.op === "set") {
    const parent = nodeAt(doc, op.path.slice(0, -1));
    return isMap(parent) && !parent.flow && parent.items.length > 0 && nodeAt(doc, op.path) === undefined;
  }
  if (op.op === "append") {
    const seq = nodeAt(doc, op.path);
    return isSeq(seq) && !seq.flow && seq.items.length > 0;
  }
  return false;
}

/** The text with the new last entry of the edited collection (see {@link addsToBlockCollection}) inserted. */
function inserted(text: string, doc: Document, op: StructuralOp, options: ToStringOptions): string | undefined {
  const container = nodeAt(doc, op.op === "set" ? op.path.slice(0, -1) : op.path);
  if (!isCollection(container) || !container.range) return undefined;
  const last = container.items[container.items.length - 1];
  const entry = new Document();
  if (isMap(container)) {
    const only = new YAMLMap();
    only.items.push(last as never);
    entry.contents = only;
  } else {
    const only = new YAMLSeq();
    only.items.push(last as never);
    entry.contents = only;
  }
  const column = columnOf(text, container.range[0]);
  const printed = entry.toString(options).replace(/^(?=[^\n])/gm, " ".repeat(column));
  // After the collection's last line (its range may run into the next line's indentation).
  let end = container.range[1];
  const tail = /\n[ \t]*$/.exec(text.slice(container.range[0], end));
  if (tail) end = container.range[0] + tail.index + 1;
  const before = text.slice(0, end);
  return before + (before.endsWith("\n") ? "" : "\n") + printed + text.slice(end);
}

function printOptions(text: string): ToStringOptions {
  return { indent: detectIndent(text), indentSeq: detectIndentSeq(text), lineWidth: 0, minContentWidth: 0, flowCollectionPadding: detectFlowPadding(text) };
}

/**
 * Whether the text pads flow collections (`[ a, b ]`, yaml's default) or not (`[a, b]`): the re-printed
 * collection's flow children must read as the rest of the file does. No flow collection: yaml's default.
 */
function detectFlowPadding(text: string): boolean {
  const sample = text.length > 200_000 ? text.slice(0, 200_000) : text;
  const padded = sample.match(/[:\-,] [[{] [^\s\]}]/g)?.length ?? 0;
  const tight = sample.match(/[:\-,] [[{][^\s\]}]/g)?.length ?? 0;
  return padded + tight === 0 ? true : padded > tight;
}

function local(text: string, doc: Document, path: Segment[], json: boolean, options: ToStringOptions): string | undefined {
  if (path.length === 0) return undefined;
  const node = nodeAt(doc, path);
  if (!node?.range || !isCollection(node)) return undefined;
  const start = node.range[0];
  let end = node.range[1];
  // A block collection's range runs into the next line's indentation; keep that indentation in place.
  const tail = /\n[ \t]*$/.exec(text.slice(start, end));
  if (tail) end = start + tail.index + 1;
  const column = columnOf(text, start);
  let printed: string;
  // JSON nests by line indentation, not by the column where `{` happens to sit.
  if (json) printed = jsonOfNode(doc, node, detectJsonIndent(text), /^[ \t]*/.exec(text.slice(start - column, start))![0].length);
  else {
    const sub = new Document();
    const { commentBefore, comment, spaceBefore } = node;
    // The node's own comments sit outside the range being replaced; they stay where they are in the text.
    node.commentBefore = undefined;
    node.comment = undefined;
    node.spaceBefore = undefined;
    sub.contents = node;
    printed = sub.toString(options);
    Object.assign(node, { commentBefore, comment, spaceBefore });
    if (node.flow) printed = printed.replace(/\n$/, "");
    printed = printed.replace(/\n(?=[^\n])/g, "\n" + " ".repeat(column));
  }
  if (!json && !node.flow && !text.slice(start, end).endsWith("\n") && printed.endsWith("\n")) printed = printed.slice(0, -1);
  return text.slice(0, start) + printed + text.slice(end);
}

function whole(text: string, doc: Document, json: boolean, options: ToStringOptions): string {
  if (json) return jsonOfNode(doc, doc.contents as Node, detectJsonIndent(text), 0) + (text.endsWith("\n") ? "\n" : "");
  return doc.toString(options);
}

function detectJsonIndent(text: string): number {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1].length : 0;
}

function commentsOf(doc: Document): string[] {
  const out: string[] = [];
  const add = (c: string | null | undefined) => c && out.push(...c.split("\n").map((l) => l.trim()).filter(Boolean));
  add(doc.commentBefore);
  add(doc.comment);
  visit(doc, {
    Node(_key, node) {
      add(node.commentBefore);
      add(node.comment);
    },
  });
  return out.sort();
}

function verify(next: string, expected: unknown, comments: string[]): boolean {
  const doc = parseDocument(next, { uniqueKeys: false });
  if (doc.errors.length > 0) return false;
  if (!sameData(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), expected)) return false;
  const after = commentsOf(doc);
  return after.length === comments.length && after.every((c, i) => c === comments[i]);
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k, i) => k === kb[i] && sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
