/**
 * @module "Same as above": schemas already shown on a page are not shown again. A named schema met again is
 * linked while the view is built (cheap: not expanded twice); any node whose children turn out identical to an
 * earlier node's (a `nullable-x` twin of `x`, an inline object written out twice) is linked by a pass over the
 * finished tree. Anchors are given only to nodes something links to.
 */
import { BODY_KEYS, bodyOf, bodyShape, bodyWeight, createShapeTable, type ShapeTable } from "./shape";
import type { SchemaView } from "./types";

interface ShownBody {
  view: SchemaView;
  /** Where it was shown, for "Same as … above" when the node has no component name (`billing`, `items of labels`). */
  label: string;
}

/** Schemas already expanded on a page. Create one per page with {@link createRepeatRegistry}. */
export interface RepeatRegistry {
  /** Named schemas by mode and `$ref`. */
  seen: Map<string, SchemaView>;
  /** Nodes by the shape of their children. */
  bodies: Map<number, ShownBody>;
  shapes: ShapeTable;
  /** Anchor prefix of the tree each recorded node belongs to. */
  prefixes: WeakMap<SchemaView, string>;
  /** Smallest body (approximate HTML bytes, see `bodyWeight`) worth replacing by a link. */
  minBytes: number;
  /** Anchors given so far to nodes that something links to. */
  anchors: number;
}

/** A registry for one page; bodies under `minBytes` (about a link's cost plus a few rows) are shown again. */
export function createRepeatRegistry(minBytes = 400): RepeatRegistry {
  return { seen: new Map(), bodies: new Map(), shapes: createShapeTable(), prefixes: new WeakMap(), minBytes, anchors: 0 };
}

/** Records where `view` (a node of the tree with anchor prefix `prefix`) was shown, if its body is worth a link. */
export function recordNamed(reg: RepeatRegistry, key: string, view: SchemaView, prefix: string): void {
  // A view cut by a budget is not what the schema looks like: later appearances must not link to it.
  if (view.truncated || view.omitted || bodyWeight(view, reg.shapes) < reg.minBytes) return;
  reg.seen.set(key, view);
  reg.prefixes.set(view, prefix);
}

function anchorOf(reg: RepeatRegistry, view: SchemaView): void {
  if (!view.anchor) view.anchor = `${reg.prefixes.get(view) ?? "s"}-r${++reg.anchors}`;
}

/** `view` without its children and locators: what a node that links to it still shows itself. */
export function ownFacts(view: SchemaView): SchemaView {
  const out: SchemaView = { ...view };
  for (const k of BODY_KEYS) delete out[k];
  delete out.anchor;
  delete out.repeatOf;
  delete out.repeatLabel;
  return out;
}

/** A link to `earlier` (a named schema met again): its facts, with the `$ref`'s own description if any. */
export function repeatNode(reg: RepeatRegistry, earlier: SchemaView, name: string, ref: string, description?: string): SchemaView {
  const target = bodyOf(earlier);
  anchorOf(reg, target);
  const rep: SchemaView = { ...ownFacts(earlier), name, ref, repeatOf: target };
  if (earlier.repeatLabel) rep.repeatLabel = earlier.repeatLabel;
  if (description !== undefined) rep.description = description;
  return rep;
}

/**
 * Walks a finished tree in page order. A node whose children are identical to those of a node shown earlier
 * (and weigh at least `minBytes`) becomes a link to it, keeping its own facts; other nodes with children are
 * recorded. Unnamed nodes are recorded only below a root (they need a label); the `not` subschema is never
 * a target (its children are not shown).
 */
export function collapseRepeats(root: SchemaView, registry: RepeatRegistry, prefix: string): void {
  visit(root, undefined, registry, prefix, 0);
}

function visit(node: SchemaView, label: string | undefined, reg: RepeatRegistry, prefix: string, depth: number): void {
  if (depth > 64 || node.cycle || node.truncated) return;
  if (node.repeatOf) {
    node.repeatOf = bodyOf(node.repeatOf);
    return;
  }
  const shape = bodyShape(node, reg.shapes);
  if (shape === null) return;
  const earlier = reg.bodies.get(shape);
  if (earlier && earlier.view !== node && bodyWeight(node, reg.shapes) >= reg.minBytes) {
    anchorOf(reg, earlier.view);
    // Links to this node (cycles inside the dropped children, named repeats met later) now lead to `earlier`.
    for (const k of BODY_KEYS) delete node[k];
    delete node.anchor;
    node.repeatOf = earlier.view;
    if (!earlier.view.name) node.repeatLabel = earlier.label;
    return;
  }
  const where = node.name ?? label;
  if (!earlier && where) {
    reg.bodies.set(shape, { view: node, label: where });
    if (!reg.prefixes.has(node)) reg.prefixes.set(node, prefix);
  }
  const sub = (child: SchemaView, childLabel: string) => visit(child, childLabel, reg, prefix, depth + 1);
  for (const p of node.properties ?? []) sub(p.schema, p.name);
  for (const p of node.patternProperties ?? []) sub(p.schema, `/${p.pattern}/`);
  const of = where ? ` of ${where}` : "";
  if (node.additionalProperties) sub(node.additionalProperties, `values${of}`);
  node.prefixItems?.forEach((x, i) => sub(x, `item ${i}${of}`));
  if (node.items) sub(node.items, `items${of}`);
  for (const g of node.variants ?? []) for (const o of g.options) sub(o.schema, o.name);
}
