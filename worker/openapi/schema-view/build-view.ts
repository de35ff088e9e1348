/** @module Builds a {@link SchemaView}: refs resolved, allOf merged, variants named, cycles cut, budget bounded. */
import { discriminatorView, mappingTargetRef, variantNames } from "./discriminator";
import { mergeAllOf } from "./merge-all-of";
import { componentName, deref, isObject, refName, type JsonObject } from "./refs";
import { collapseRepeats, recordNamed, repeatNode, type RepeatRegistry } from "./repeats";
import type { Constraint, EnumValue, SchemaView, VariantGroup, ViewMode } from "./types";
import { BUDGET_NOTES, VIEW_BUDGET } from "../budgets";
import { budgetSpent, nodeCost, spendBudget, type ViewBudget } from "./view-budget";

/** Options for {@link viewSchema}. */
export interface ViewOptions {
  /** Drops readOnly properties (`request`) or writeOnly ones (`response`). Default `any`. */
  mode?: ViewMode;
  /** Prefix for anchors of linked nodes; make it unique per tree on a page. Default `s`. */
  anchorPrefix?: string;
  /** Node budget per tree (bounds memory and HTML on huge definitions). Default {@link VIEW_BUDGET}.maxNodesPerTree. */
  maxNodes?: number;
  /** Nesting budget. Default {@link VIEW_BUDGET}.maxDepth. */
  maxDepth?: number;
  /**
   * The page's budget, shared by every view of one page (see `createViewBudget`): once spent, further nodes are
   * cut (`truncated`, with a `budgetNote`) and the remaining properties of an object are counted in `omitted`.
   */
  budget?: ViewBudget;
  /**
   * Shared by every view of one page: a named schema expanded once (with a body of at least `minBytes`)
   * becomes a `repeatOf` node when it appears again, in this tree or a later one of the same mode; so does any node
   * whose children are identical to those of a node shown earlier (see `collapseRepeats`).
   */
  repeats?: RepeatRegistry;
}

export { createRepeatRegistry, type RepeatRegistry } from "./repeats";
export { createViewBudget, type ViewBudget } from "./view-budget";

interface Frame { ref: string; name: string; view: SchemaView }
interface Context {
  refs: Record<string, unknown>;
  mode: ViewMode;
  prefix: string;
  counter: number;
  nodes: number;
  maxNodes: number;
  maxDepth: number;
  stack: Frame[];
  repeats?: RepeatRegistry;
  page?: ViewBudget;
  /** Some node was cut at the depth limit (the root then carries the note). */
  depthCut?: boolean;
}

const CONSTRAINT_KEYWORDS = ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf", "minLength",
  "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minContains", "maxContains", "minProperties",
  "maxProperties", "propertyNames", "dependentRequired"];

/**
 * Resolves `schema` against `refs` into a render-ready tree. Never throws; a `$ref` already being expanded
 * above becomes a `cycle` node pointing at that ancestor's anchor, a missing one an `unresolved` node.
 */
export function viewSchema(schema: unknown, refs: Record<string, unknown>, options: ViewOptions = {}): SchemaView {
  const ctx: Context = {
    refs, mode: options.mode ?? "any", prefix: options.anchorPrefix ?? "s", counter: 0, nodes: 0,
    maxNodes: options.maxNodes ?? VIEW_BUDGET.maxNodesPerTree, maxDepth: options.maxDepth ?? VIEW_BUDGET.maxDepth, stack: [],
    repeats: options.repeats, page: options.budget,
  };
  const view = build(schema, ctx, 0);
  if (ctx.depthCut && !view.budgetNote) view.budgetNote = BUDGET_NOTES.schemaDepth(ctx.maxDepth);
  if (options.repeats) collapseRepeats(view, options.repeats, ctx.prefix);
  return view;
}

/** Whether a (possibly referenced, possibly allOf-composed) schema carries `flag: true`. */
export function hasFlag(schema: unknown, flag: "readOnly" | "writeOnly", refs: Record<string, unknown>): boolean {
  const v = deref(schema, refs).value;
  if (!isObject(v)) return false;
  if (v[flag] === true) return true;
  return Array.isArray(v.allOf) && v.allOf.some((m) => { const d = deref(m, refs).value; return isObject(d) && d[flag] === true; });
}

function typesOf(s: JsonObject): string[] {
  let types: string[] = [];
  if (typeof s.type === "string") types = [s.type];
  else if (Array.isArray(s.type)) types = s.type.filter((t): t is string => typeof t === "string");
  else if (isObject(s.properties) || s.additionalProperties !== undefined || isObject(s.patternProperties)) types = ["object"];
  else if (s.items !== undefined || Array.isArray(s.prefixItems)) types = ["array"];
  if (s.nullable === true && types.length > 0 && !types.includes("null")) types.push("null");
  return types;
}

function enumValues(s: JsonObject): EnumValue[] | undefined {
  if (!Array.isArray(s.enum)) return undefined;
  const descs = s["x-enum-descriptions"] ?? s["x-enumDescriptions"];
  const names = s["x-enumNames"] ?? s["x-enum-varnames"];
  return s.enum.map((value, i) => {
    const out: EnumValue = { value };
    const label = Array.isArray(names) ? names[i] : undefined;
    if (typeof label === "string") out.label = label;
    const desc = Array.isArray(descs) ? descs[i] : isObject(descs) ? descs[String(value)] : undefined;
    if (typeof desc === "string") out.description = desc;
    return out;
  });
}

/** A single `allOf: [{$ref}]` next to annotations is the 3.0 way of annotating a ref: treat it as the ref. */
function unwrapSingleRef(s: JsonObject): JsonObject {
  if (!Array.isArray(s.allOf) || s.allOf.length !== 1 || !isObject(s.allOf[0]) || typeof s.allOf[0].$ref !== "string") return s;
  if (s.properties || s.type || s.oneOf || s.anyOf || s.items) return s;
  const { allOf, ...own } = s;
  return { ...own, $ref: (allOf as JsonObject[])[0].$ref };
}

/** True once the tree's or the page's node budget is spent. */
function spent(ctx: Context): boolean {
  return ctx.nodes >= ctx.maxNodes || (ctx.page !== undefined && budgetSpent(ctx.page));
}

function build(raw: unknown, ctx: Context, depth: number): SchemaView {
  ctx.nodes++;
  if (ctx.page) spendBudget(ctx.page, 1);
  if (raw === false) return { types: [], never: true };
  if (!isObject(raw)) return { types: [] };
  let schema = unwrapSingleRef(raw);
  let ref: string | undefined;
  let name: string | undefined;
  if (typeof schema.$ref === "string") {
    ref = schema.$ref;
    name = componentName(ref) ?? refName(ref);
    const ancestor = ctx.stack.find((f) => f.ref === ref);
    if (ancestor) {
      // Anchors only where something links: the ancestor gets one when the first cycle points back at it.
      ancestor.view.anchor ??= `${ctx.prefix}-${++ctx.counter}`;
      const cyc: SchemaView = { types: [], name, ref, cycle: { ref, name: ancestor.name, anchor: ancestor.view.anchor } };
      if (typeof schema.description === "string") cyc.description = schema.description;
      return cyc;
    }
    const earlier = ctx.repeats?.seen.get(`${ctx.mode}:${ref}`);
    if (earlier) return repeatNode(ctx.repeats!, earlier, name, ref, typeof schema.description === "string" ? schema.description : undefined);
    const d = deref(schema, ctx.refs);
    if (d.unresolved) return { types: [], name, ref, unresolved: d.unresolved };
    if (d.value === false) return { types: [], name, ref, never: true };
    schema = isObject(d.value) ? unwrapSingleRef(d.value) : {};
  }
  if (spent(ctx) || depth > ctx.maxDepth) {
    const cut: SchemaView = { types: typesOf(schema), truncated: true };
    if (depth > ctx.maxDepth) ctx.depthCut = true;
    else cut.budgetNote = BUDGET_NOTES.schemaBudget;
    if (ref) { cut.ref = ref; cut.name = name; }
    return cut;
  }
  // Long descriptions cost more than one node: the budget bounds the page's HTML, not just its node count.
  const extra = nodeCost(schema) - 1;
  ctx.nodes += extra;
  if (ctx.page) spendBudget(ctx.page, extra);
  const view: SchemaView = { types: [] };
  if (ref && name) {
    view.name = name;
    view.ref = ref;
    ctx.stack.push({ ref, name, view });
  }
  try {
    fill(view, schema, ref, ctx, depth);
  } finally {
    if (ref && name) ctx.stack.pop();
  }
  if (ref && ctx.repeats) recordNamed(ctx.repeats, `${ctx.mode}:${ref}`, view, ctx.prefix);
  return view;
}

function fill(view: SchemaView, schema: JsonObject, ref: string | undefined, ctx: Context, depth: number): void {
  let s = schema;
  let groups: { kind: "oneOf" | "anyOf"; items: unknown[]; discriminator?: JsonObject }[] = [];
  if (Array.isArray(schema.allOf)) {
    const merged = mergeAllOf(schema, ctx.refs, new Set(ctx.stack.map((f) => f.ref)), ref);
    s = merged.schema;
    groups = merged.variantGroups;
    if (merged.parts.length > 0) view.composedOf = merged.parts;
    if (merged.conflicts.length > 0) view.conflicts = merged.conflicts;
    if (merged.never) view.never = true;
    if (merged.unresolved.length > 0) view.unresolved = merged.unresolved.join(", ");
    if (merged.budgetNote) view.budgetNote = merged.budgetNote;
  } else {
    for (const kind of ["oneOf", "anyOf"] as const) {
      const items = schema[kind];
      if (Array.isArray(items)) groups.push({ kind, items, discriminator: isObject(schema.discriminator) ? schema.discriminator : undefined });
    }
  }
  view.types = typesOf(s);
  if (typeof s.title === "string") view.title = s.title;
  if (typeof s.description === "string") view.description = s.description;
  if (typeof s.format === "string") view.format = s.format;
  const en = enumValues(s);
  if (en) view.enum = en;
  if ("const" in s) view.const = { value: s.const };
  if ("default" in s) view.default = { value: s.default };
  const examples = [...(Array.isArray(s.examples) ? s.examples : []), ...("example" in s ? [s.example] : [])];
  if (examples.length > 0) view.examples = examples;
  const constraints: Constraint[] = [];
  for (const k of CONSTRAINT_KEYWORDS) {
    if (s[k] === undefined || (k === "uniqueItems" && s[k] !== true)) continue;
    if ((k === "exclusiveMinimum" || k === "exclusiveMaximum") && s[k] === false) continue;
    constraints.push({ keyword: k, value: s[k] });
  }
  if (constraints.length > 0) view.constraints = constraints;
  if (s.readOnly === true) view.readOnly = true;
  if (s.writeOnly === true) view.writeOnly = true;
  if (s.deprecated === true) view.deprecated = true;
  if (typeof s.contentMediaType === "string") view.contentMediaType = s.contentMediaType;
  if (typeof s.contentEncoding === "string") view.contentEncoding = s.contentEncoding;

  // At the depth limit, or with the budget spent, the node keeps its own facts and says why its children are not
  // shown: one note here rather than one stub per child.
  // A node at the depth limit is a leaf; the tree's root says so once ("schema shown to depth N"), not every leaf.
  if ((depth >= ctx.maxDepth || spent(ctx)) && hasSubschemas(s, groups.length > 0)) {
    view.truncated = true;
    if (depth < ctx.maxDepth) view.budgetNote = BUDGET_NOTES.schemaBudget;
    else ctx.depthCut = true;
    return;
  }
  if (isObject(s.properties)) {
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    view.properties = [];
    const entries = Object.entries(s.properties);
    for (let i = 0; i < entries.length; i++) {
      const [name, sub] = entries[i];
      if (spent(ctx)) {
        view.omitted = entries.length - i;
        break;
      }
      if (ctx.mode === "request" && hasFlag(sub, "readOnly", ctx.refs)) continue;
      if (ctx.mode === "response" && hasFlag(sub, "writeOnly", ctx.refs)) continue;
      view.properties.push({ name, required: required.has(name), schema: build(sub, ctx, depth + 1) });
    }
  }
  if (isObject(s.patternProperties)) {
    view.patternProperties = Object.entries(s.patternProperties).map(([pattern, sub]) => ({ pattern, schema: build(sub, ctx, depth + 1) }));
  }
  if (s.additionalProperties === false) view.additionalProperties = false;
  else if (s.additionalProperties === true) view.additionalProperties = { types: [] };
  else if (isObject(s.additionalProperties)) view.additionalProperties = build(s.additionalProperties, ctx, depth + 1);
  if (Array.isArray(s.prefixItems)) view.prefixItems = s.prefixItems.map((x) => build(x, ctx, depth + 1));
  if (Array.isArray(s.items)) view.prefixItems = s.items.map((x) => build(x, ctx, depth + 1));
  else if (s.items !== undefined) view.items = build(s.items, ctx, depth + 1);
  if (s.not !== undefined) view.not = build(s.not, ctx, depth + 1);
  const variants = buildVariants(groups, s, ctx, depth);
  if (variants.length > 0) view.variants = variants;
}

/** Whether `s` has children a view would build (properties, items, variants...). */
function hasSubschemas(s: JsonObject, variants: boolean): boolean {
  return variants || isObject(s.properties) || isObject(s.patternProperties) || isObject(s.additionalProperties) || s.items !== undefined
    || Array.isArray(s.prefixItems) || s.not !== undefined || (isObject(s.discriminator) && isObject(s.discriminator.mapping));
}

function buildVariants(groups: { kind: "oneOf" | "anyOf"; items: unknown[]; discriminator?: JsonObject }[],
  s: JsonObject, ctx: Context, depth: number): VariantGroup[] {
  const ownDisc = isObject(s.discriminator) ? s.discriminator : undefined;
  if (groups.length === 0 && ownDisc && isObject(ownDisc.mapping)) {
    // 3.0 style: a base with a mapping and no oneOf; its subtypes are the mapping targets.
    const onStack = new Set(ctx.stack.map((f) => f.ref));
    const targets = [...new Set(Object.values(ownDisc.mapping).filter((t): t is string => typeof t === "string").map(mappingTargetRef))];
    if (targets.length > 0 && !targets.some((t) => onStack.has(t))) groups = [{ kind: "oneOf", items: targets.map(($ref) => ({ $ref })), discriminator: ownDisc }];
    if (groups.length > 0) return buildGroups(groups, ctx, depth, "mapping");
  }
  return groups.length > 0 ? buildGroups(groups, ctx, depth) : [];
}

function buildGroups(groups: { kind: "oneOf" | "anyOf"; items: unknown[]; discriminator?: JsonObject }[], ctx: Context,
  depth: number, kindOverride?: "mapping"): VariantGroup[] {
  return groups.map((g) => {
    const refs = g.items.map((i) => (isObject(i) && typeof i.$ref === "string" ? i.$ref : undefined)).filter((r): r is string => !!r);
    const disc = g.discriminator ? discriminatorView(g.discriminator, refs) : undefined;
    const names = variantNames(g.items, ctx.refs, disc);
    const group: VariantGroup = {
      kind: kindOverride ?? g.kind,
      options: g.items.map((item, i) => {
        const itemRef = isObject(item) && typeof item.$ref === "string" ? item.$ref : undefined;
        const value = itemRef ? disc?.mapping.find((m) => m.target === itemRef)?.value : undefined;
        const option = { name: names[i], schema: build(item, ctx, depth + 1) };
        return value === undefined ? option : { ...option, discriminatorValue: value };
      }),
    };
    if (disc) group.discriminator = disc;
    return group;
  });
}
