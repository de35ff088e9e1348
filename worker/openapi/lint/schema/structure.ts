/**
 * @module Document structure against the OpenAPI JSON Schema of its version, split into units (each path item,
 * webhook, component, 2.0 definition...) validated on their own and cached by identity, plus one pass over the
 * rest with those units skipped. An edit inside one operation re-validates one path item.
 */

import type { Segment } from "../rule";
import type { OasVersion } from "../types";
import { isObject } from "../util/is-object";
import { loadSchemas, type VersionSchemas } from "./load";
import type { Schema, SchemaObject, SchemaSet } from "./schema-set";
import { toFinding, type StructureFinding } from "./spectral-messages";
import { SchemaValidator } from "./validator";

/** Where units sit, by version: `[container path]` whose members are units. */
const UNIT_CONTAINERS: Record<OasVersion, Segment[][]> = {
  "2.0": [["paths"], ["definitions"], ["parameters"], ["responses"]],
  "3.0": [["paths"], ["components", "schemas"], ["components", "responses"], ["components", "parameters"], ["components", "examples"], ["components", "requestBodies"], ["components", "headers"], ["components", "securitySchemes"], ["components", "links"], ["components", "callbacks"]],
  "3.1": [],
  "3.2": [],
};
UNIT_CONTAINERS["3.1"] = [...UNIT_CONTAINERS["3.0"], ["webhooks"], ["components", "pathItems"]];
UNIT_CONTAINERS["3.2"] = [...UNIT_CONTAINERS["3.1"], ["components", "mediaTypes"]];

interface UnitResult {
  schemas: readonly Schema[];
  key: string;
  findings: StructureFinding[];
}

/** Cache of unit results by unit value (a session keeps it; see DocumentContext.store). */
export type StructureCache = WeakMap<object, unknown>;

/** Structural findings for `root`, reusing cached unit results whose value and position are unchanged. */
export function validateStructure(root: Record<string, unknown>, version: OasVersion, cache: StructureCache): StructureFinding[] {
  const schemas = loadSchemas(version);
  const validator = new SchemaValidator(schemas.set);
  const findings: StructureFinding[] = [];
  const skip = new Set<object>();
  for (const container of UNIT_CONTAINERS[version]) {
    const members = valueAtPath(root, container);
    if (!isObject(members)) continue;
    const kept = keptContainer(cache, members, container, schemas, skip);
    if (kept) {
      for (const f of kept.findings) findings.push(f);
      lastContainers(cache).set(kept.key, kept);
      continue;
    }
    const containerKey = container.join("\u0000");
    const made: ContainerResult = { key: containerKey, schemas, findings: [], units: [], byKey: new Map() };
    // The last result for this container's position: an edit copies the container, but leaves all its members
    // but one as they were (GitHub's `paths` has ~1,000), whose findings it hands back without paths or lookups.
    const last = lastContainers(cache).get(containerKey);
    const prior = last && last.schemas === schemas ? last.byKey : undefined;
    let shared = false;
    for (const key of Object.keys(members)) {
      const value = members[key];
      if (!isObject(value)) continue;
      if (skip.has(value)) {
        shared = true; // the same object in two places (YAML aliases): the result depends on the other place
        continue;
      }
      const kept = prior?.get(key);
      let unit: UnitFindings;
      if (kept && kept.value === value) unit = kept;
      else {
        const path = [...container, key];
        const unitSchemas = schemasAt(schemas, path);
        if (!unitSchemas) continue;
        unit = { value, findings: unitFindings(validator, value, path, unitSchemas, cache) };
      }
      skip.add(value);
      made.units.push(value);
      made.byKey.set(key, unit);
      for (const f of unit.findings) made.findings.push(f);
    }
    for (const f of made.findings) findings.push(f);
    if (!shared) {
      cache.set(members, made);
      lastContainers(cache).set(containerKey, made);
    } else lastContainers(cache).delete(containerKey);
  }
  for (const e of validator.validate(schemas.root, root, [], skip)) {
    const f = toFinding(e);
    if (f) findings.push(f);
  }
  return findings;
}

/**
 * One unit container's findings (`paths`, `components.schemas`...), kept by the container's identity: an edit
 * copies only the containers on its path, so the other containers' units are not even enumerated again.
 */
interface ContainerResult {
  key: string;
  schemas: VersionSchemas;
  findings: StructureFinding[];
  /** The units validated on their own (skipped by the pass over the rest). */
  units: object[];
  /** Those units' findings by member key (a unit's findings depend on its value, key and container only). */
  byKey: Map<string, UnitFindings>;
}

/** A unit member of a container and its findings. */
interface UnitFindings {
  value: object;
  findings: StructureFinding[];
}

/** Per structure cache (a session's), the last result of each container position (`container.join`). */
const lastByCache = new WeakMap<StructureCache, Map<string, ContainerResult>>();

function lastContainers(cache: StructureCache): Map<string, ContainerResult> {
  let map = lastByCache.get(cache);
  if (!map) lastByCache.set(cache, (map = new Map()));
  return map;
}

/** The kept result for `members` at `container`, its units added to `skip`; undefined when it must be recomputed. */
function keptContainer(cache: StructureCache, members: object, container: readonly Segment[], schemas: VersionSchemas, skip: Set<object>): ContainerResult | undefined {
  const hit = cache.get(members) as ContainerResult | undefined;
  if (!hit || hit.schemas !== schemas || hit.key !== container.join("\u0000")) return undefined;
  // A unit already met in an earlier container (shared by aliases) was skipped there: recompute this one.
  for (const unit of hit.units) if (skip.has(unit)) return undefined;
  for (const unit of hit.units) skip.add(unit);
  return hit;
}

function unitFindings(validator: SchemaValidator, value: Record<string, unknown>, path: Segment[], schemas: readonly Schema[], cache: StructureCache): StructureFinding[] {
  const key = path.join("\u0000");
  const hit = cache.get(value) as UnitResult | undefined;
  if (hit && hit.key === key && hit.schemas.length === schemas.length && hit.schemas.every((s, i) => s === schemas[i])) return hit.findings;
  const findings: StructureFinding[] = [];
  for (const schema of schemas) {
    for (const e of validator.validate(schema, value, path)) {
      const f = toFinding(e);
      if (f) findings.push(f);
    }
  }
  cache.set(value, { schemas, key, findings } satisfies UnitResult);
  return findings;
}

function valueAtPath(root: unknown, path: readonly Segment[]): unknown {
  let node = root;
  for (const s of path) node = isObject(node) ? node[s as string] : undefined;
  return node;
}

/**
 * The subschemas that apply to the member at `path`, when they can be known from keys alone (properties,
 * patternProperties, additionalProperties, `$ref`). Undefined when a conditional, a combinator or an
 * `errorMessage` on the way makes the member's validation depend on its value or on its siblings.
 */
function schemasAt(schemas: VersionSchemas, path: readonly Segment[]): readonly Schema[] | undefined {
  const memo = schemas.unitSchemas;
  const key = path.slice(0, -1).join("\u0000") + "\u0001" + String(path[path.length - 1]);
  if (memo.has(key)) return memo.get(key) ?? undefined;
  // Keyed by unit path (every path name of every definition linted): bounded, or the isolate's heap grows with
  // each new definition (issue 37).
  if (memo.size >= UNIT_SCHEMAS_MAX) memo.clear();
  let current: Schema[] = [schemas.root];
  for (const segment of path) {
    const next: Schema[] = [];
    for (const s of current) {
      const children = childSchemas(schemas.set, s, String(segment));
      if (!children) {
        memo.set(key, null);
        return undefined;
      }
      next.push(...children);
    }
    current = next;
  }
  memo.set(key, current);
  return current;
}

/** Most unit paths whose subschemas are memoised per OpenAPI version (a definition's units recur within its lint). */
const UNIT_SCHEMAS_MAX = 2048;

const KEY_ONLY = new Set(["$id", "$schema", "$comment", "$defs", "definitions", "description", "title", "type", "required", "minProperties", "maxProperties", "properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "$ref", "$dynamicAnchor", "default", "examples", "deprecated", "propertyNames", "$vocabulary", "$anchor"]);

function childSchemas(set: SchemaSet, schema: Schema, key: string): Schema[] | undefined {
  if (schema === true) return [];
  if (schema === false) return undefined;
  const out: Schema[] = [];
  const visit = (s: SchemaObject, depth: number): boolean => {
    if (depth > 16) return false;
    const before = out.length;
    for (const k of Object.keys(s)) if (!KEY_ONLY.has(k)) return false;
    if (typeof s.$ref === "string") {
      const resource = set.resourceOf(s);
      const target = resource ? set.resolve(s.$ref, resource) : undefined;
      if (target === undefined || target === false) return false;
      if (target !== true && !visit(target, depth + 1)) return false;
    }
    const props = s.properties as Record<string, Schema> | undefined;
    if (props && Object.prototype.hasOwnProperty.call(props, key)) {
      out.push(props[key]);
    }
    for (const [pattern, sub] of Object.entries((s.patternProperties as Record<string, Schema>) ?? {})) {
      if (new RegExp(pattern, "u").test(key)) {
        out.push(sub);
      }
    }
    const matched = out.length > before;
    if (!matched && s.additionalProperties !== undefined) {
      if (s.additionalProperties === false) return false;
      out.push(s.additionalProperties as Schema);
    }
    // A member no keyword covers is left to unevaluatedProperties at the parent: keep it in the parent pass.
    return matched || s.additionalProperties !== undefined || s.unevaluatedProperties === undefined;
  };
  return visit(schema, 0) ? out : undefined;
}
