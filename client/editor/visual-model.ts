/**
 * @module The Visual view's model, built in the worker from a parsed source: an outline of what can be edited
 * (general info, servers, tags, operations, webhooks, schemas) plus values, scalar slots and lines for the
 * nodes on screen. Reads the `yaml` nodes directly so a 1 MB definition is never converted whole.
 */
import { isMap, isPair, isScalar, isSeq, Scalar } from "yaml";
import type { Document, Node } from "yaml";
import { fromPointer, toPointer } from "./pointer";
import type { Segment } from "./pointer";
import type { OutlineEntry, ScalarSlot, ScalarStyle, VisualModel } from "./protocol";
import { columnOf, deref, detectIndent, detectSpecVersion, nodeAt } from "./yaml-source";
import type { ParsedSource } from "./yaml-source";
import { buildOutline } from "./outline";
import { buildJsonModel } from "./json-model";
import { detectFormat } from "./format";

/** Nodes copied per request at most; deeper content is cut (the Source view still has it). */
export const MAX_MODEL_NODES = 20_000;

const STYLE: Record<string, ScalarStyle> = {
  PLAIN: "plain",
  QUOTE_DOUBLE: "double",
  QUOTE_SINGLE: "single",
  BLOCK_LITERAL: "literal",
  BLOCK_FOLDED: "folded",
};

/**
 * The model of `text` for `pointers` at `version`: valid JSON is read directly (`json-model.ts`, no `yaml`
 * syntax tree: about 9 s saved on GitHub's 13 MB description); anything else goes through `parse` (the
 * `yaml` Document, cached by the caller per version) and {@link buildVisualModel}.
 */
export function buildModelForText(text: string, version: number, pointers: readonly string[], parse: () => ParsedSource): VisualModel {
  if (detectFormat(text) === "json") {
    const model = buildJsonModel(text, version, pointers, MAX_MODEL_NODES);
    if (model) return model;
  }
  return buildVisualModel(parse(), version, pointers);
}

/** Builds the model for `pointers` (values, slots and lines of those subtrees) at `version`. */
export function buildVisualModel(source: ParsedSource, version: number, pointers: readonly string[]): VisualModel {
  const { doc, text, format } = source;
  const model: VisualModel = { version, format, outline: [], pointers: [...pointers], values: {}, slots: {}, lines: {} };
  const root = deref(doc, doc.contents);
  if (source.error || !isMap(root)) {
    model.parseError = source.error ?? { message: "The document's top level is not a mapping", line: 1 };
    if (!isMap(root)) return model;
  }
  const line = (offset: number) => source.lineCounter.linePos(offset).line;
  model.specVersion = detectSpecVersion(Object.fromEntries(root.items.filter((p) => isScalar(p.key) && isScalar(p.value)).map((p) => [String((p.key as Scalar).value), (p.value as Scalar).value])));
  model.outline = buildOutline(doc, model.specVersion, line);
  const indent = format === "yaml" ? detectIndent(text) : 2;
  const budget = { left: MAX_MODEL_NODES };
  for (const pointer of pointers) {
    const path = fromPointer(pointer);
    const node = nodeAt(doc, path);
    if (node === undefined) continue;
    const flow = inFlow(doc, path);
    model.values[pointer] = copy(doc, node, path, flow, { model, text, format, indent, line, budget, keyColumn: keyColumnOf(doc, path, text) });
  }
  return model;
}

interface CopyContext {
  model: VisualModel;
  text: string;
  format: "yaml" | "json";
  indent: number;
  line: (offset: number) => number;
  budget: { left: number };
  /** Column of the key (or `- ` indicator) owning the node being copied, for block scalar indentation. */
  keyColumn: number;
}

function copy(doc: Document, raw: unknown, path: Segment[], flow: boolean, ctx: CopyContext): unknown {
  const node = deref(doc, raw) as Node | null | undefined;
  if (--ctx.budget.left < 0 || node == null) return undefined;
  const pointer = toPointer(path);
  if (node.range && !(pointer in ctx.model.lines)) ctx.model.lines[pointer] = ctx.line(node.range[0]);
  if (isScalar(node)) {
    if (node.range) ctx.model.slots[pointer] = slotOf(node, flow, ctx);
    return jsonSafe(node.value);
  }
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    const childFlow = flow || !!node.flow;
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const childPath = [...path, key];
      if (pair.key.range) ctx.model.lines[toPointer(childPath)] ??= ctx.line(pair.key.range[0]);
      const keyColumn = pair.key.range ? columnOf(ctx.text, pair.key.range[0]) : ctx.keyColumn;
      out[key] = copy(doc, pair.value, childPath, childFlow, { ...ctx, keyColumn });
    }
    return out;
  }
  if (isSeq(node)) {
    const childFlow = flow || !!node.flow;
    return node.items.map((item, i) => {
      const range = (deref(doc, item) as Node | null)?.range;
      // A block scalar item is indented past its `- `: the item's own column.
      const keyColumn = range ? columnOf(ctx.text, range[0]) - ctx.indent : ctx.keyColumn;
      return copy(doc, item, [...path, i], childFlow, { ...ctx, keyColumn });
    });
  }
  return undefined;
}

function slotOf(node: Scalar, flow: boolean, ctx: CopyContext): ScalarSlot {
  const [from, to] = node.range!;
  const style: ScalarStyle = ctx.format === "json" ? "json" : STYLE[node.type ?? "PLAIN"] ?? "plain";
  const eol = ctx.text.indexOf("\n", to);
  const rest = ctx.text.slice(to, eol === -1 ? ctx.text.length : eol);
  let blockIndent = ctx.keyColumn + ctx.indent;
  if (style === "literal" || style === "folded") {
    const content = /\n( +)\S/.exec(ctx.text.slice(from, to));
    if (content) blockIndent = content[1].length;
  }
  return {
    from,
    to,
    style,
    blockIndent,
    flow: flow || /^\s*#/.test(rest),
    endsWithNewline: to > from && ctx.text.charCodeAt(to - 1) === 10,
    empty: from === to,
  };
}

function jsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return "(binary)";
  return value;
}

function inFlow(doc: Document, path: readonly Segment[]): boolean {
  for (let i = 0; i < path.length; i++) {
    const n = nodeAt(doc, path.slice(0, i));
    if ((isMap(n) || isSeq(n)) && n.flow) return true;
  }
  return false;
}

function keyColumnOf(doc: Document, path: readonly Segment[], text: string): number {
  if (path.length === 0) return -2;
  const parent = nodeAt(doc, path.slice(0, -1));
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path[path.length - 1]));
    if (pair && isScalar(pair.key) && pair.key.range) return columnOf(text, pair.key.range[0]);
  }
  const self = nodeAt(doc, path);
  return self?.range ? columnOf(text, self.range[0]) - 2 : 0;
}
