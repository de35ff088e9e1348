/** @module allOf merging: one readable schema out of its parts, with disagreements reported, not hidden. */
import { BUDGET_NOTES, MERGE_BUDGET } from "../budgets";
import { componentName, deref, isObject, refName, type JsonObject } from "./refs";
import type { Conflict } from "./types";

/** What {@link mergeAllOf} returns: a schema with no `allOf`, the parts' names and their conflicts. */
export interface MergeResult {
  schema: JsonObject;
  /** Names of the merged parts in order (`inline` for anonymous ones); the owner's own keywords are not listed. */
  parts: string[];
  conflicts: Conflict[];
  /** A part was the `false` schema or unresolvable: nothing can validate / something is missing. */
  never: boolean;
  unresolved: string[];
  /** Parts left out because {@link MERGE_BUDGET}.maxParts was reached (the note readers see), if any. */
  budgetNote?: string;
  /** One oneOf/anyOf group per part that had one (a merged schema may carry several). */
  variantGroups: { kind: "oneOf" | "anyOf"; items: unknown[]; discriminator?: JsonObject }[];
}

const LOWER_BOUNDS = ["minimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER_BOUNDS = ["maximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
const FLAGS = ["readOnly", "writeOnly", "deprecated", "nullable", "uniqueItems"];
const LAST_WINS = ["title", "description", "example", "examples", "default", "externalDocs", "xml",
  "x-enum-descriptions", "x-enumDescriptions", "x-enumNames", "discriminator", "not"];
const MUST_AGREE = ["format", "pattern", "const", "multipleOf", "contentMediaType", "contentEncoding",
  "additionalProperties", "exclusiveMinimum", "exclusiveMaximum"];
const HANDLED = new Set(["allOf", "oneOf", "anyOf", "type", "properties", "required", "items", "enum",
  "patternProperties", "$ref", ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...FLAGS, ...LAST_WINS, ...MUST_AGREE]);

interface Part { name: string; schema: JsonObject }

/** A comparable key for a JSON value (serialised once per value, never per pair). */
const keyOf = (v: unknown): string => {
  try {
    return typeof v === "string" ? `s${v}` : JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/** The distinct values of `values` (by JSON value), in order. */
function distinct(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = keyOf(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** True when a base schema's variants or mapping point back at one of `selfRefs` (Cat allOf Pet, Pet oneOf Cat). */
function pointsBack(schema: JsonObject, selfRefs: ReadonlySet<string>): boolean {
  for (const key of ["oneOf", "anyOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && list.some((s) => isObject(s) && typeof s.$ref === "string" && selfRefs.has(s.$ref))) return true;
  }
  const mapping = isObject(schema.discriminator) ? schema.discriminator.mapping : undefined;
  if (isObject(mapping)) {
    for (const target of Object.values(mapping)) {
      if (typeof target !== "string") continue;
      for (const self of selfRefs) if (self === target || componentName(self) === target) return true;
    }
  }
  return false;
}

/** Drops the variants of a base schema so that merging it into a derived schema cannot loop. */
function asBase(schema: JsonObject): JsonObject {
  const { oneOf: _o, anyOf: _a, ...rest } = schema;
  if (isObject(rest.discriminator)) rest.discriminator = { propertyName: rest.discriminator.propertyName };
  return rest;
}

function collect(schema: JsonObject, refs: Record<string, unknown>, selfRefs: ReadonlySet<string>,
  seen: Set<string>, out: Part[], result: MergeResult, ownName: string): void {
  const { allOf, ...own } = schema;
  // Own keywords come after the parts: inherited properties read first, and the most specific annotation wins.
  if (!Array.isArray(allOf)) { out.push({ name: ownName, schema: own }); return; }
  for (const member of allOf) {
    if (result.parts.length >= MERGE_BUDGET.maxParts) {
      result.budgetNote = BUDGET_NOTES.allOfParts(MERGE_BUDGET.maxParts);
      break;
    }
    const d = deref(member, refs);
    if (d.unresolved) { result.unresolved.push(d.unresolved); continue; }
    if (d.ref && seen.has(d.ref)) continue;
    if (d.value === false) { result.never = true; continue; }
    if (!isObject(d.value)) continue;
    const name = d.ref ? componentName(d.ref) ?? refName(d.ref) : "inline";
    result.parts.push(name);
    const value = (d.ref && selfRefs.has(d.ref)) || pointsBack(d.value, selfRefs) ? asBase(d.value) : d.value;
    // One set for the whole merge, not one per path: a part reached by many paths (a diamond of allOfs) is merged
    // once, so merging never grows with the number of paths through the allOf graph.
    if (d.ref) seen.add(d.ref);
    collect(value, refs, selfRefs, seen, out, result, name);
  }
  out.push({ name: ownName, schema: own });
}

/** Normalised type list of one part (type arrays, 3.0 `nullable`), or undefined when the part says nothing. */
function typesOf(schema: JsonObject): string[] | undefined {
  const t = schema.type;
  if (typeof t === "string") return schema.nullable === true ? [t, "null"] : [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return undefined;
}

/**
 * Merges `schema.allOf` (recursively, through `$ref`s) into one schema, parts in order, then the owner's own
 * keywords (annotations: the last part that has one wins). Properties are united (a property
 * declared by several parts becomes `{allOf: [...]}` so its own view merges it in turn), `required` is
 * united, bounds take the stricter value, types intersect; any disagreement is listed in `conflicts`.
 * `selfRefs` holds the refs being expanded (this schema's and its ancestors'): a part that is one of them, or
 * whose oneOf or discriminator mapping points back at one of them, is merged as a base, without its variants.
 * `ownRef` (this schema's `$ref`) is never merged into itself.
 * @see https://json-schema.org/draft/2020-12/json-schema-core#section-10.2.1.1
 */
export function mergeAllOf(schema: JsonObject, refs: Record<string, unknown>, selfRefs: ReadonlySet<string>,
  ownRef?: string): MergeResult {
  const result: MergeResult = { schema: {}, parts: [], conflicts: [], never: false, unresolved: [], variantGroups: [] };
  const parts: Part[] = [];
  collect(schema, refs, selfRefs, new Set(ownRef ? [ownRef] : []), parts, result, "own");
  const merged: JsonObject = {};
  const conflict = (keyword: string, values: unknown[], effective?: unknown) => {
    const different = distinct(values);
    if (different.length > 1) result.conflicts.push(effective === undefined ? { keyword, values: different } : { keyword, values: different, effective });
  };
  const valuesOf = (keyword: string) => parts.map((p) => p.schema[keyword]).filter((v) => v !== undefined);

  const typeLists = parts.map((p) => typesOf(p.schema)).filter((t): t is string[] => t !== undefined);
  if (typeLists.length > 0) {
    // integer is a subset of number, so integer ∩ number = integer.
    const meet = (a: string[], b: string[]) => [...new Set(a.flatMap((t) =>
      b.includes(t) ? [t] : (t === "integer" && b.includes("number")) || (t === "number" && b.includes("integer")) ? ["integer"] : []))];
    const effective = typeLists.reduce(meet);
    merged.type = effective.length === 1 ? effective[0] : effective;
    conflict("type", typeLists.map((t) => (t.length === 1 ? t[0] : t)), effective.length > 0 ? merged.type : undefined);
    if (effective.length === 0) merged.type = typeLists[0].length === 1 ? typeLists[0][0] : typeLists[0];
  }

  const properties: Record<string, unknown[]> = {};
  for (const p of parts) {
    if (!isObject(p.schema.properties)) continue;
    for (const [name, sub] of Object.entries(p.schema.properties)) (properties[name] ??= []).push(sub);
  }
  if (Object.keys(properties).length > 0) {
    merged.properties = Object.fromEntries(Object.entries(properties).map(([n, subs]) => [n, subs.length === 1 ? subs[0] : { allOf: subs }]));
  }
  const required = [...new Set(parts.flatMap((p) => (Array.isArray(p.schema.required) ? p.schema.required : [])))];
  if (required.length > 0) merged.required = required;

  const patternProps: Record<string, unknown[]> = {};
  for (const p of parts) {
    if (!isObject(p.schema.patternProperties)) continue;
    for (const [k, sub] of Object.entries(p.schema.patternProperties)) (patternProps[k] ??= []).push(sub);
  }
  if (Object.keys(patternProps).length > 0) {
    merged.patternProperties = Object.fromEntries(Object.entries(patternProps).map(([k, s]) => [k, s.length === 1 ? s[0] : { allOf: s }]));
  }
  const items = valuesOf("items");
  if (items.length > 0) merged.items = items.length === 1 ? items[0] : { allOf: items };

  for (const k of LOWER_BOUNDS) {
    const vs = valuesOf(k).filter((v): v is number => typeof v === "number");
    if (vs.length > 0) { merged[k] = Math.max(...vs); conflict(k, vs, merged[k]); }
  }
  for (const k of UPPER_BOUNDS) {
    const vs = valuesOf(k).filter((v): v is number => typeof v === "number");
    if (vs.length > 0) { merged[k] = Math.min(...vs); conflict(k, vs, merged[k]); }
  }
  for (const k of FLAGS) if (parts.some((p) => p.schema[k] === true)) merged[k] = true;
  for (const k of LAST_WINS) {
    const vs = valuesOf(k);
    if (vs.length > 0) merged[k] = vs[vs.length - 1];
  }
  for (const k of MUST_AGREE) {
    const vs = valuesOf(k);
    if (vs.length === 0) continue;
    merged[k] = vs[0];
    conflict(k, vs);
  }
  const enums = valuesOf("enum").filter(Array.isArray) as unknown[][];
  if (enums.length > 0) {
    const effective = enums.reduce((a, b) => {
      const inB = new Set(b.map(keyOf));
      return a.filter((v) => inB.has(keyOf(v)));
    });
    merged.enum = effective;
    conflict("enum", enums, effective);
  }
  for (const p of parts) {
    for (const kind of ["oneOf", "anyOf"] as const) {
      const list = p.schema[kind];
      if (Array.isArray(list)) {
        const disc = isObject(p.schema.discriminator) ? p.schema.discriminator : undefined;
        result.variantGroups.push(disc ? { kind, items: list, discriminator: disc } : { kind, items: list });
      }
    }
    for (const [k, v] of Object.entries(p.schema)) if (!HANDLED.has(k) && !(k in merged)) merged[k] = v;
  }
  result.schema = merged;
  return result;
}
