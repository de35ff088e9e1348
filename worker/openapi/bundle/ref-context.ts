/**
 * @module Where an external `$ref` target belongs in the bundled document, judged from where the `$ref` sits:
 * a schema goes to `components/schemas` (2.0: `definitions`), a parameter to `components/parameters`, and so
 * on; a `$ref` that is itself a component entry is replaced in place; anything else (path items, descriptions)
 * is inlined.
 */

import type { PathSegment } from "../model/pointer";

export type Placement = { kind: "in-place" } | { kind: "hoist"; section: string[] } | { kind: "inline" };

const SCHEMA_SLOT = new Set(["schema", "items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems"]);
const SCHEMA_MAP_OR_LIST = new Set(["properties", "patternProperties", "allOf", "anyOf", "oneOf", "prefixItems", "$defs", "definitions", "dependentSchemas"]);
const V3_SECTIONS = new Set(["schemas", "responses", "parameters", "examples", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems", "mediaTypes"]);
const V2_SECTIONS = new Set(["definitions", "parameters", "responses", "securityDefinitions"]);

/** Placement of a `$ref` found at `path` (bundled-document path of the object holding it). */
export function placementFor(path: readonly PathSegment[], swagger2: boolean): Placement {
  const n = path.length;
  if (swagger2 ? n === 2 && V2_SECTIONS.has(String(path[0])) : n === 3 && path[0] === "components" && V3_SECTIONS.has(String(path[1]))) {
    return { kind: "in-place" };
  }
  const last = path[n - 1];
  const parent = n > 1 ? path[n - 2] : undefined;
  const section = (v3: string, v2?: string) =>
    swagger2 ? (v2 ? { kind: "hoist" as const, section: [v2] } : { kind: "inline" as const }) : { kind: "hoist" as const, section: ["components", v3] };
  if (parent === "paths" || parent === "webhooks" || (n > 2 && path[n - 3] === "callbacks")) return { kind: "inline" };
  if (parent === "parameters" && typeof last === "number") return section("parameters", "parameters");
  if (parent === "responses") return section("responses", "responses");
  if (last === "requestBody") return section("requestBodies");
  if (parent === "headers") return section("headers");
  if (parent === "examples" && !swagger2) return section("examples");
  if (parent === "links") return section("links");
  if (parent === "callbacks") return section("callbacks");
  if (SCHEMA_SLOT.has(String(last)) || (parent !== undefined && SCHEMA_MAP_OR_LIST.has(String(parent)))) return section("schemas", "definitions");
  return { kind: "inline" };
}
