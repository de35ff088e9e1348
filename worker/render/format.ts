/** @module Short human labels for schema facts: type lines, constraint chips, literal values. */
import type { Constraint, SchemaView } from "../openapi/schema-view/types";
import { bodyOf } from "../openapi/schema-view/shape";

/** A JSON literal as written in a definition (strings quoted), cut at `max` characters. */
export function literal(value: unknown, max = 120): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** Example blocks longer than this (characters) are shortened: arrays to their first items, then cut. */
export const EXAMPLE_MAX_CHARS = 16_000;

function shortenArrays(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) return value.slice(0, keep).map((v) => shortenArrays(v, keep));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenArrays(v, keep)]));
  return value;
}

/**
 * Pretty JSON for example blocks (strings such as XML are shown verbatim). Oversized examples keep a page
 * within budget: arrays are cut to two items, and what is still too long is cut with a visible note.
 */
export function prettyExample(value: unknown, max = EXAMPLE_MAX_CHARS): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value, null, 2) ?? "";
  } catch {
    text = String(value);
  }
  if (text.length <= max) return text;
  const full = text.length;
  if (typeof value !== "string") {
    try {
      const shorter = JSON.stringify(shortenArrays(value, 2), null, 2) ?? "";
      if (shorter.length <= max) return `${shorter}\n… (arrays shortened to two items; ${Math.round(full / 1024)} KB in full)`;
      text = shorter;
    } catch {
      // keep the original text
    }
  }
  return `${text.slice(0, max)}\n… (example shortened; ${Math.round(full / 1024)} KB in full)`;
}

/** `string`, `integer | null`, `array of Pet`, `object`, `any`. */
export function typeLabel(shown: SchemaView): string {
  if (shown.cycle) return shown.cycle.name;
  const body = bodyOf(shown); // children of a "same as above" node live on the node it links to
  const types = shown.types.filter((t) => t !== "null");
  const nullable = shown.types.includes("null");
  let label: string;
  if (types.length === 0) label = body.variants?.length ? body.variants[0].kind === "anyOf" ? "any of" : "one of" : shown.never ? "never" : "any";
  else label = types.map((t) => (t === "array" && body.items ? `array of ${itemLabel(body.items)}` : t)).join(" | ");
  return nullable ? `${label} | null` : label;
}

function itemLabel(items: SchemaView): string {
  if (items.name && (items.types.includes("object") || items.cycle || items.variants)) return items.name;
  return typeLabel(items);
}

const BOUND_LABELS: Record<string, (v: unknown, all: Constraint[]) => string | undefined> = {
  minimum: (v, all) => `${all.some((c) => c.keyword === "exclusiveMinimum" && c.value === true) ? ">" : "≥"} ${v}`,
  maximum: (v, all) => `${all.some((c) => c.keyword === "exclusiveMaximum" && c.value === true) ? "<" : "≤"} ${v}`,
  exclusiveMinimum: (v) => (typeof v === "number" ? `> ${v}` : undefined),
  exclusiveMaximum: (v) => (typeof v === "number" ? `< ${v}` : undefined),
  multipleOf: (v) => `multiple of ${v}`,
  minLength: (v) => `length ≥ ${v}`,
  maxLength: (v) => `length ≤ ${v}`,
  pattern: (v) => `pattern ${v}`,
  minItems: (v) => `items ≥ ${v}`,
  maxItems: (v) => `items ≤ ${v}`,
  uniqueItems: () => "unique items",
  minContains: (v) => `contains ≥ ${v}`,
  maxContains: (v) => `contains ≤ ${v}`,
  minProperties: (v) => `properties ≥ ${v}`,
  maxProperties: (v) => `properties ≤ ${v}`,
  propertyNames: (v) => `property names ${literal(v, 60)}`,
  dependentRequired: (v) => `dependent required ${literal(v, 80)}`,
};

/** One chip per constraint (`≥ 1`, `length ≤ 100`, `pattern ^[a-z]+$`); boolean exclusive flags fold into their bound. */
export function constraintLabels(constraints: Constraint[] | undefined): string[] {
  if (!constraints) return [];
  const out: string[] = [];
  for (const c of constraints) {
    const label = BOUND_LABELS[c.keyword]?.(c.value, constraints);
    if (label) out.push(label);
  }
  return out;
}

/** Whether a view has something to expand (properties, items with content, variants). */
export function hasChildren(view: SchemaView): boolean {
  if (view.repeatOf) return hasChildren(view.repeatOf);
  if (view.cycle || view.truncated) return false;
  if (view.properties?.length || view.variants?.length || view.patternProperties?.length || view.prefixItems?.length) return true;
  if (view.additionalProperties && typeof view.additionalProperties === "object" && hasChildren(view.additionalProperties)) return true;
  if (view.not) return true;
  return view.items ? hasChildren(view.items) : false;
}
