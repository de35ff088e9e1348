/** @module Structural identity of schema views: two views get the same shape id exactly when they show the same. */
import type { SchemaView } from "./types";

/** Interned shape keys and the shape id and size of every view seen. One per page (inside a repeat registry). */
export interface ShapeTable {
  ids: Map<string, number>;
  full: WeakMap<SchemaView, number>;
  body: WeakMap<SchemaView, number | null>;
  weight: WeakMap<SchemaView, number>;
}

/** An empty table. */
export function createShapeTable(): ShapeTable {
  return { ids: new Map(), full: new WeakMap(), body: new WeakMap(), weight: new WeakMap() };
}

/** Fields holding a view's children; everything else is the view's own facts. */
export const BODY_KEYS = ["properties", "patternProperties", "additionalProperties", "items", "prefixItems", "variants", "not"] as const;

/** Fields that locate a view rather than describe it: never part of a shape. */
const LOCATION_KEYS = new Set<string>(["anchor", "ref", "repeatOf", "repeatLabel", ...BODY_KEYS]);

function intern(table: ShapeTable, key: string): number {
  let id = table.ids.get(key);
  if (id === undefined) table.ids.set(key, (id = table.ids.size));
  return id;
}

/** The node a view takes its children from: itself, or the end of its `repeatOf` chain. */
export function bodyOf(view: SchemaView): SchemaView {
  let v = view;
  for (let i = 0; v.repeatOf && i < 64; i++) v = v.repeatOf;
  return v;
}

/**
 * Shape id of a view's children (properties with their names and required flags, pattern and additional
 * properties, items, tuple items, variants with their option names, `not`), or `null` when it has none.
 * A `repeatOf` node has the children of its target.
 */
export function bodyShape(view: SchemaView, table: ShapeTable): number | null {
  const v = bodyOf(view);
  const known = table.body.get(v);
  if (known !== undefined) return known;
  const parts: unknown[] = [];
  if (v.properties) parts.push("p", v.properties.map((p) => [p.name, p.required ? 1 : 0, fullShape(p.schema, table)]));
  if (v.patternProperties) parts.push("pp", v.patternProperties.map((p) => [p.pattern, fullShape(p.schema, table)]));
  if (v.additionalProperties !== undefined) parts.push("ap", v.additionalProperties === false ? false : fullShape(v.additionalProperties, table));
  if (v.items) parts.push("i", fullShape(v.items, table));
  if (v.prefixItems) parts.push("t", v.prefixItems.map((x) => fullShape(x, table)));
  if (v.variants) {
    parts.push("v", v.variants.map((g) => [g.kind, g.discriminator ?? null, g.options.map((o) => [o.name, o.discriminatorValue ?? null, fullShape(o.schema, table)])]));
  }
  if (v.not) parts.push("n", fullShape(v.not, table));
  const id = parts.length === 0 ? null : intern(table, JSON.stringify(parts));
  table.body.set(v, id);
  return id;
}

/** Shape id of a whole view: its own facts (name included, anchors and refs not) and its children. */
export function fullShape(view: SchemaView, table: ShapeTable): number {
  const known = table.full.get(view);
  if (known !== undefined) return known;
  const own: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(view)) if (!LOCATION_KEYS.has(k) && val !== undefined) own[k] = k === "cycle" ? [view.cycle!.ref, view.cycle!.name] : val;
  let key: string;
  try {
    key = JSON.stringify([own, bodyShape(view, table)]);
  } catch {
    key = `unique:${table.ids.size}`; // not serialisable (should not happen for JSON input): never shared
  }
  const id = intern(table, key);
  table.full.set(view, id);
  return id;
}

/**
 * Roughly how many bytes of HTML a view's children take (row markup, names, descriptions, enum values),
 * a `repeatOf` or cycle child counting as a link. Decides whether linking to an earlier copy pays.
 */
export function bodyWeight(view: SchemaView, table: ShapeTable): number {
  if (view.repeatOf || view.cycle) return 0;
  const known = table.weight.get(view);
  if (known !== undefined) return known;
  let n = 0;
  const add = (c: SchemaView, name = "") => {
    n += 60 + name.length + (c.name?.length ?? 0) + (c.description?.length ?? 0) + 12 * (c.enum?.length ?? 0) + bodyWeight(c, table);
  };
  view.properties?.forEach((p) => add(p.schema, p.name));
  view.patternProperties?.forEach((p) => add(p.schema, p.pattern));
  if (view.additionalProperties) add(view.additionalProperties);
  if (view.items) add(view.items);
  view.prefixItems?.forEach((x) => add(x));
  view.variants?.forEach((g) => g.options.forEach((o) => add(o.schema, o.name)));
  if (view.not) add(view.not);
  table.weight.set(view, n);
  return n;
}
