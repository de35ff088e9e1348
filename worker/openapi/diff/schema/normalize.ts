/**
 * @module Schema normalisation for comparison: `$ref`s followed, `allOf` merged, 3.0 `nullable` and 3.1 type
 * arrays (and `anyOf`/`oneOf` with a `{type: "null"}` variant) read as one nullability flag. Cycle-safe (a schema
 * being normalised is not entered again) and memoised per document node.
 */

import { DIFF_BUDGET } from "../../budgets";
import { isObject } from "../../model/pointer";
import type { PathSegment } from "../../model/pointer";
import type { DiffBudget } from "../budget";
import { resolveAt } from "../resolve";
import { mergeKeywords, readKeywords, type Keywords } from "./keywords";
import type { SchemaRef } from "./schema-ref";

export type { SchemaRef } from "./schema-ref";

const NUMERIC = ["maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems", "exclusiveMaximum", "exclusiveMinimum", "maxProperties", "minProperties", "multipleOf"] as const;
export type NumericKeyword = (typeof NUMERIC)[number];

/** What the comparison reads of one schema. */
export interface NormSchema {
  at: PathSegment[];
  /** Component name when reached through `components/schemas/<name>` (matches oneOf/anyOf variants). */
  name?: string;
  /** Types other than "null", sorted; undefined = any type. */
  types?: string[];
  nullable: boolean;
  format?: string;
  enum?: unknown[];
  const?: { value: unknown };
  default?: { value: unknown };
  properties: Map<string, SchemaRef>;
  required: Set<string>;
  items?: SchemaRef;
  prefixItems?: SchemaRef[];
  oneOf?: SchemaRef[];
  anyOf?: SchemaRef[];
  /** The schema's own allOf parts (their facts are merged in too): oasdiff reports parts added and removed. */
  allOf?: SchemaRef[];
  /** `x-extensible-enum` (Zalando's guidelines; oasdiff checks removals from it). */
  extensibleEnum?: unknown[];
  keywords: Keywords;
  readOnly: boolean;
  writeOnly: boolean;
  deprecated: boolean;
  numbers: Partial<Record<NumericKeyword, number>>;
  uniqueItems: boolean;
  pattern?: string;
}

/** Normalises schemas of one document, memoised by node. */
export class SchemaNormalizer {
  private readonly cache = new WeakMap<object, NormSchema>();
  private readonly active = new WeakSet<object>();

  constructor(
    private readonly document: unknown,
    private readonly budget: DiffBudget,
  ) {}

  /** The normalised schema at `ref`; an unresolvable or non-object schema reads as `{}` (any value). */
  get(ref: SchemaRef): NormSchema {
    this.budget.spend();
    const located = resolveAt(this.document, ref.value, ref.at);
    if (!located) return emptySchema(ref.at);
    // A `$ref` with sibling fields resolves to a fresh merged object each time: key it by the referencing object.
    const key = located.merged && isObject(ref.value) ? ref.value : located.node;
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (this.active.has(key)) return emptySchema(located.at, located.name); // a cycle through allOf: stop here
    this.active.add(key);
    try {
      const norm = this.build(located.node, located.at, located.name);
      this.cache.set(key, norm);
      return norm;
    } finally {
      this.active.delete(key);
    }
  }

  private build(node: Record<string, unknown>, at: PathSegment[], name: string | undefined): NormSchema {
    const norm = own(node, at, name);
    const parts: SchemaRef[] = norm.allOf ? [...norm.allOf] : [];
    // A `{type: "null"}` variant makes the schema nullable; a single remaining variant is merged like allOf.
    for (const key of ["oneOf", "anyOf"] as const) {
      const variants = norm[key];
      if (!variants) continue;
      const kept = variants.filter((v) => !isNullOnly(this.get(v)));
      if (kept.length === variants.length) continue;
      norm.nullable = true;
      if (kept.length === 1) {
        parts.push(kept[0]);
        delete norm[key];
      } else norm[key] = kept;
    }
    for (const part of parts) mergeInto(norm, this.get(part));
    return norm;
  }
}


function emptySchema(at: PathSegment[], name?: string): NormSchema {
  return { at, ...(name !== undefined ? { name } : {}), nullable: false, properties: new Map(), required: new Set(), keywords: {}, readOnly: false, writeOnly: false, deprecated: false, numbers: {}, uniqueItems: false };
}

function isNullOnly(s: NormSchema): boolean {
  return s.nullable && s.types !== undefined && s.types.length === 0;
}

function own(node: Record<string, unknown>, at: PathSegment[], name: string | undefined): NormSchema {
  const norm = emptySchema(at, name);
  const type = node.type;
  const list = typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : undefined;
  if (list) {
    norm.types = [...new Set(list.filter((t) => t !== "null"))].sort();
    if (list.includes("null")) norm.nullable = true;
  }
  if (node.nullable === true) norm.nullable = true;
  if (typeof node.format === "string") norm.format = node.format;
  if (Array.isArray(node.enum)) {
    norm.enum = node.enum.filter((v) => v !== null);
    if (node.enum.includes(null)) norm.nullable = true;
  }
  if ("const" in node) norm.const = { value: node.const };
  if ("default" in node) norm.default = { value: node.default };
  if (isObject(node.properties)) for (const [key, value] of Object.entries(node.properties)) norm.properties.set(key, { value, at: [...at, "properties", key] });
  if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === "string") norm.required.add(r);
  if (Array.isArray(node.prefixItems)) norm.prefixItems = node.prefixItems.map((value, i) => ({ value, at: [...at, "prefixItems", i] }));
  if (Array.isArray(node.allOf)) norm.allOf = node.allOf.slice(0, DIFF_BUDGET.maxAllOfParts).map((value, i) => ({ value, at: [...at, "allOf", i] }));
  if (Array.isArray(node["x-extensible-enum"])) norm.extensibleEnum = node["x-extensible-enum"];
  norm.keywords = readKeywords(node, at);
  if (isObject(node.items)) norm.items = { value: node.items, at: [...at, "items"] };
  else if (Array.isArray(node.items) && !norm.prefixItems) norm.prefixItems = node.items.map((value, i) => ({ value, at: [...at, "items", i] }));
  for (const key of ["oneOf", "anyOf"] as const) {
    const list = node[key];
    if (Array.isArray(list)) norm[key] = list.map((value, i) => ({ value, at: [...at, key, i] }));
  }
  norm.readOnly = node.readOnly === true;
  norm.writeOnly = node.writeOnly === true;
  norm.deprecated = node.deprecated === true;
  for (const k of NUMERIC) if (typeof node[k] === "number" && Number.isFinite(node[k])) norm.numbers[k] = node[k] as number;
  // 3.0's boolean exclusiveMaximum/exclusiveMinimum are 3.1's numeric ones, so a migration compares equal.
  if (node.exclusiveMaximum === true && norm.numbers.maximum !== undefined) {
    norm.numbers.exclusiveMaximum = norm.numbers.maximum;
    delete norm.numbers.maximum;
  }
  if (node.exclusiveMinimum === true && norm.numbers.minimum !== undefined) {
    norm.numbers.exclusiveMinimum = norm.numbers.minimum;
    delete norm.numbers.minimum;
  }
  norm.uniqueItems = node.uniqueItems === true;
  if (typeof node.pattern === "string") norm.pattern = node.pattern;
  return norm;
}

/** allOf: the part's facts join the schema's (properties and required united, types intersected, the rest filled in). */
function mergeInto(into: NormSchema, part: NormSchema): void {
  for (const [key, ref] of part.properties) if (!into.properties.has(key)) into.properties.set(key, ref);
  for (const r of part.required) into.required.add(r);
  if (part.types) into.types = into.types ? into.types.filter((t) => part.types!.includes(t)) : part.types;
  into.nullable ||= part.nullable;
  into.format ??= part.format;
  into.enum ??= part.enum;
  into.const ??= part.const;
  into.default ??= part.default;
  into.items ??= part.items;
  into.prefixItems ??= part.prefixItems;
  into.oneOf ??= part.oneOf;
  into.anyOf ??= part.anyOf;
  into.readOnly ||= part.readOnly;
  into.writeOnly ||= part.writeOnly;
  into.deprecated ||= part.deprecated;
  for (const k of NUMERIC) if (into.numbers[k] === undefined && part.numbers[k] !== undefined) into.numbers[k] = part.numbers[k];
  into.pattern ??= part.pattern;
  into.extensibleEnum ??= part.extensibleEnum;
  mergeKeywords(into.keywords, part.keywords);
  into.uniqueItems ||= part.uniqueItems;
}
