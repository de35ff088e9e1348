/**
 * @module Turns a schema of the document into something @cfworker/json-schema can validate examples against,
 * as Spectral's oasExample prepares it: a copy (never the document itself), 3.0 `nullable` / 2.0 `x-nullable`
 * admitting null, `readOnly` properties not required in requests and `writeOnly` ones not in responses, and
 * local `$ref`s pointing at equally prepared copies registered under `urn:portico:` ids.
 */

import type { OasVersion } from "../types";
import { isObject, isRef } from "../util/is-object";

/** Which media an example belongs to: Spectral relaxes `required` for request and response bodies. */
export type ExampleMode = "schema" | "request" | "response";

export interface PreparedSchema {
  root: Record<string, unknown>;
  /** Prepared copies of every schema the root reaches through `$ref`, by their `urn:portico:` id. */
  referenced: Map<string, Record<string, unknown>>;
  /** `$ref` string → the document node it reached (revalidate before reuse). */
  deps: Map<string, unknown>;
  /** A `$ref` could not be resolved (Spectral then validates nothing). */
  incomplete: boolean;
  /** The references form a cycle (Spectral then validates nothing; Portico does, see docs/lint.md). */
  cyclic: boolean;
}

type Resolve = (ref: string) => unknown;

const NOT_SCHEMA_VALUES = new Set(["enum", "const", "default", "example", "examples", "x-example"]);

/**
 * Formats @cfworker/json-schema checks more strictly than ajv-formats (which Spectral uses): `time` without a
 * time zone is valid for ajv. Renamed so that cfworker ignores them rather than reporting false errors.
 */
const LENIENT_FORMATS = new Set(["time"]);

/** Prepares `schema` (already resolved if it was a `$ref`) for validation in `mode`. */
export function prepareSchema(schema: Record<string, unknown>, version: OasVersion, mode: ExampleMode, resolve: Resolve): PreparedSchema {
  const referenced = new Map<string, Record<string, unknown>>();
  const deps = new Map<string, unknown>();
  const ids = new Map<unknown, string>();
  let incomplete = false;
  let cyclic = false;
  const nullable = version === "3.0" || version === "2.0";

  const copy = (node: unknown, inNot: boolean, chain: Set<unknown>): unknown => {
    if (Array.isArray(node)) return node.map((n) => copy(n, inNot, chain));
    if (!isObject(node)) return node;
    if (isRef(node)) {
      const target = resolve(node.$ref);
      deps.set(node.$ref, target);
      if (!isObject(target)) {
        incomplete = true;
        return {};
      }
      if (chain.has(target)) cyclic = true;
      let id = ids.get(target);
      if (!id) {
        id = `urn:portico:${mode}:${ids.size}`;
        ids.set(target, id);
        chain.add(target);
        const prepared = copy(target, inNot, chain) as Record<string, unknown>;
        chain.delete(target);
        prepared.$id = id;
        referenced.set(id, prepared);
      }
      return { $ref: id };
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      if (key === "$id" || key === "id" || key === "$schema") continue;
      const value = node[key];
      if (NOT_SCHEMA_VALUES.has(key)) out[key] = value;
      else if (key === "properties" && isObject(value)) {
        const props: Record<string, unknown> = {};
        for (const name of Object.keys(value)) props[name] = copy(value[name], inNot, chain);
        out[key] = props;
      } else out[key] = copy(value, inNot || key === "not", chain);
    }
    if (typeof out.format === "string" && LENIENT_FORMATS.has(out.format)) out.format = `portico-unchecked:${out.format}`;
    if (nullable && (out.nullable === true || (version === "2.0" && out["x-nullable"] === true)) && typeof out.type === "string") {
      out.type = [out.type, "null"];
    }
    if (mode !== "schema" && !inNot) relaxRequired(out, node, mode, resolve);
    return out;
  };

  const rootId = `urn:portico:${mode}:root`;
  ids.set(schema, rootId);
  const root = copy(schema, false, new Set([schema])) as Record<string, unknown>;
  root.$id = rootId;
  if (version === "2.0" && typeof schema.required === "boolean") delete root.required;
  return { root, referenced, deps, incomplete, cyclic };
}

/** Drops `readOnly` (request) or `writeOnly` (response) properties from `required`. */
function relaxRequired(out: Record<string, unknown>, source: Record<string, unknown>, mode: ExampleMode, resolve: Resolve): void {
  if (!Array.isArray(out.required) || !isObject(source.properties)) return;
  const flag = mode === "request" ? "readOnly" : "writeOnly";
  const props = source.properties;
  const kept = out.required.filter((name) => {
    const prop = props[name as string];
    const resolved = isRef(prop) ? resolve(prop.$ref) : prop;
    return !(isObject(resolved) && resolved[flag] === true);
  });
  if (kept.length) out.required = kept;
  else delete out.required;
}
