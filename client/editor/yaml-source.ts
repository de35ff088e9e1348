/**
 * @module A definition's text as a `yaml` Document with positions: the worker's view of the source for the
 * Visual model, structural edits and format conversion. JSON parses too (JSON is YAML 1.2 flow style).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { Document, Node } from "yaml";
import type { Segment } from "./pointer";
import { detectFormat } from "./format";
import type { SourceFormat, SpecVersion } from "./protocol";

export { detectFormat };

/** Aliases a document may expand before we refuse it (billion-laughs guard). */
export const MAX_ALIAS_COUNT = 1000;

export interface ParsedSource {
  text: string;
  format: SourceFormat;
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** First error, if the text does not parse cleanly. */
  error?: { message: string; line: number };
}


/** Parses text with line positions. Never throws; syntax errors come back in `error`. */
export function parseSource(text: string): ParsedSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, keepSourceTokens: false });
  const first = doc.errors[0];
  const error = first ? { message: first.message.split("\n")[0], line: lineCounter.linePos(first.pos[0]).line } : undefined;
  return { text, format: detectFormat(text), doc, lineCounter, error };
}

/** The OpenAPI version family of a parsed root (`swagger: "2.0"`, `openapi: 3.x`). */
export function detectSpecVersion(root: unknown): SpecVersion | undefined {
  if (!root || typeof root !== "object") return undefined;
  const r = root as Record<string, unknown>;
  if (String(r.swagger ?? "").startsWith("2")) return "2.0";
  const m = /^3\.([0-2])/.exec(String(r.openapi ?? ""));
  return m ? (`3.${m[1]}` as SpecVersion) : undefined;
}

/** Follows an alias to its anchored node (one hop; the parser already refuses alias cycles). */
export function deref(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** The node at a path, following aliases, or undefined. */
export function nodeAt(doc: Document, path: readonly Segment[]): Node | undefined {
  let node: unknown = doc.contents;
  for (const seg of path) {
    node = deref(doc, node);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      node = pair?.value ?? undefined;
    } else if (isSeq(node)) {
      node = node.items[Number(seg)];
    } else return undefined;
    if (node == null) return undefined;
  }
  return (deref(doc, node) ?? undefined) as Node | undefined;
}

/** The value of a scalar node, or undefined for anything else. */
export function scalarValue(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}

/** The 0-based column of an offset. */
export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1);
}

/** Indentation step of a block YAML text (2 when it cannot tell). */
export function detectIndent(text: string): number {
  const m = /\n( +)[^\s#-]/.exec(text);
  const n = m ? m[1].length : 2;
  return n >= 1 && n <= 8 ? n : 2;
}

/** Whether block sequences are indented under their key (`key:\n  - a`) or not (`key:\n- a`). */
export function detectIndentSeq(text: string): boolean {
  const m = /\n( *)[^\s#-][^\n]*:[ \t]*\n( *)- /.exec(text);
  return m ? m[2].length > m[1].length : true;
}
