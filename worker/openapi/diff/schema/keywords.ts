/**
 * @module Schema check family: JSON Schema 2020-12 keywords of OpenAPI 3.1+ schemas (contains, min/maxContains,
 * dependentRequired, dependentSchemas, patternProperties, propertyNames, unevaluated*, if/then/else, content*) and
 * additionalProperties. Read from each schema, united through allOf, compared in either direction: the emitted suffix
 * names the event and rules.ts gives it the level of its direction (oasdiff's, ours for additionalProperties).
 * @see https://json-schema.org/draft/2020-12/json-schema-core (applicators) and json-schema-validation
 */

import { isObject } from "../../model/pointer";
import type { PathSegment } from "../../model/pointer";
import type { SchemaRef } from "./schema-ref";
import type { RelChange } from "./rel";

/** The keywords read; a subschema-valued one keeps its ref (compared when both sides have it). */
export interface Keywords {
  contains?: SchemaRef;
  minContains?: number;
  maxContains?: number;
  dependentRequired?: Map<string, string>;
  dependentSchemas?: Set<string>;
  patternProperties?: Set<string>;
  propertyNames?: boolean;
  unevaluatedProperties?: boolean;
  unevaluatedItems?: boolean;
  if?: boolean;
  then?: boolean;
  else?: boolean;
  contentSchema?: boolean;
  contentMediaType?: string;
  contentEncoding?: string;
  /** undefined: any property allowed (absent or `true`); `false`: none; a ref: each must match it. */
  additionalProperties?: SchemaRef | false;
}

const PRESENCE = [["propertyNames", "property-names"], ["unevaluatedProperties", "unevaluated-properties"], ["unevaluatedItems", "unevaluated-items"], ["if", "if"], ["then", "then"], ["else", "else"], ["contentSchema", "content-schema"]] as const;

/** The keywords of one schema node (`true` constrains nothing, so it reads as absent). */
export function readKeywords(node: Record<string, unknown>, at: PathSegment[]): Keywords {
  const k: Keywords = {};
  if (node.contains !== undefined && node.contains !== true) k.contains = { value: node.contains, at: [...at, "contains"] };
  if (typeof node.minContains === "number") k.minContains = node.minContains;
  if (typeof node.maxContains === "number") k.maxContains = node.maxContains;
  if (isObject(node.dependentRequired)) k.dependentRequired = new Map(Object.entries(node.dependentRequired).map(([key, list]) => [key, Array.isArray(list) ? [...list].map(String).sort().join(",") : ""]));
  if (isObject(node.dependentSchemas)) k.dependentSchemas = new Set(Object.keys(node.dependentSchemas));
  if (isObject(node.patternProperties)) k.patternProperties = new Set(Object.keys(node.patternProperties));
  for (const [key] of PRESENCE) if (node[key] !== undefined && node[key] !== true) k[key] = true;
  if (typeof node.contentMediaType === "string") k.contentMediaType = node.contentMediaType;
  if (typeof node.contentEncoding === "string") k.contentEncoding = node.contentEncoding;
  if (node.additionalProperties === false) k.additionalProperties = false;
  else if (isObject(node.additionalProperties)) k.additionalProperties = { value: node.additionalProperties, at: [...at, "additionalProperties"] };
  return k;
}

/** allOf: a part's keywords fill those the schema does not set itself. */
export function mergeKeywords(into: Keywords, part: Keywords): void {
  for (const key of Object.keys(part) as (keyof Keywords)[]) if (into[key] === undefined) (into as Record<string, unknown>)[key] = part[key];
}

type Recurse = (base: SchemaRef, rev: SchemaRef) => { changes: RelChange[] };

/** Keyword events from `b` to `r`; subschemas present on both sides (contains, additionalProperties) are compared. */
export function compareKeywords(b: Keywords, r: Keywords, at: { base: PathSegment[]; revision: PathSegment[] }, out: RelChange[], recurse: Recurse): void {
  // Most schemas (all of 3.0's) use none of these: skip the comparison rather than walk every keyword.
  if (b === r || (isEmpty(b) && isEmpty(r))) return;
  const here = { path: [], ...at };
  const event = (suffix: string, what: string) => out.push({ ...here, suffix, what });
  const presence = (name: string, was: boolean, is: boolean, label: string) => {
    if (was !== is) event(`${name}-${is ? "added" : "removed"}`, `${label} ${is ? "added" : "removed"}`);
  };
  presence("contains", b.contains !== undefined, r.contains !== undefined, "contains");
  if (b.contains && r.contains) for (const c of recurse(b.contains, r.contains).changes) out.push({ ...c, path: ["contains", ...c.path] });
  for (const key of ["minContains", "maxContains"] as const) {
    const bv = b[key];
    const rv = r[key];
    if (bv !== undefined && rv !== undefined && bv !== rv) event(`${key === "minContains" ? "min" : "max"}-contains-${rv > bv ? "increased" : "decreased"}`, `${key} changed from ${bv} to ${rv}`);
  }
  for (const [key, name] of PRESENCE) presence(name, b[key] === true, r[key] === true, key);
  keyed("dependent-required", b.dependentRequired, r.dependentRequired, event);
  for (const [key, list] of b.dependentRequired ?? []) {
    const next = r.dependentRequired?.get(key);
    if (next !== undefined && next !== list) event("dependent-required-changed", `dependentRequired ${key} changed from [${list}] to [${next}]`);
  }
  keyed("dependent-schema", b.dependentSchemas, r.dependentSchemas, event);
  keyed("pattern-property", b.patternProperties, r.patternProperties, event);
  for (const key of ["contentMediaType", "contentEncoding"] as const) {
    if (b[key] !== r[key]) event(key === "contentMediaType" ? "content-media-type-changed" : "content-encoding-changed", `${key} changed from ${b[key] ?? "none"} to ${r[key] ?? "none"}`);
  }
  const ba = b.additionalProperties;
  const ra = r.additionalProperties;
  if (ba && ra) for (const c of recurse(ba, ra).changes) out.push({ ...c, path: ["additionalProperties", ...c.path] });
  else if (ba !== ra) {
    // Ordered from "any property" through "a schema" to "none": moving right narrows what may appear.
    const rank = (a: Keywords["additionalProperties"]) => (a === undefined ? 0 : a === false ? 2 : 1);
    const narrowed = rank(ra) > rank(ba);
    event(`additional-properties-${narrowed ? "narrowed" : "widened"}`, `additionalProperties ${narrowed ? "narrowed" : "widened"}`);
  }
}

/** Entries of a keyed keyword (dependentRequired, dependentSchemas, patternProperties) added and removed. */
function keyed(name: string, b: Map<string, unknown> | Set<string> | undefined, r: Map<string, unknown> | Set<string> | undefined, event: (suffix: string, what: string) => void): void {
  for (const key of b?.keys() ?? []) if (!r?.has(key)) event(`${name}-removed`, `${name.replace("-", " ")} ${key} removed`);
  for (const key of r?.keys() ?? []) if (!b?.has(key)) event(`${name}-added`, `${name.replace("-", " ")} ${key} added`);
}

function isEmpty(k: Keywords): boolean {
  for (const _ in k) return false;
  return true;
}
