/**
 * @module ajv-errors' `errorMessage` keyword, as Spectral's OpenAPI schemas use it: one readable message in place
 * of the errors a schema produced.
 * @see https://github.com/ajv-validator/ajv-errors
 */

import type { Segment } from "../rule";
import type { SchemaObject } from "./schema-set";
import type { SchemaError } from "./schema-error";

/**
 * ajv-errors: replaces the errors `s` produced (`errors[start..]`, at instance path `here`) with its
 * `errorMessage`: per keyword (errors of that keyword of `s` itself), per child property, or a catch-all.
 */
export function applyErrorMessage(errors: SchemaError[], start: number, s: SchemaObject, here: Segment[]): void {
  const em = s.errorMessage;
  const samePath = (e: SchemaError) => e.instancePath.length === here.length && e.instancePath.every((seg, i) => seg === here[i]);
  const below = (e: SchemaError) => e.instancePath.length >= here.length && here.every((seg, i) => e.instancePath[i] === seg);
  const slice = errors.slice(start);
  const added: SchemaError[] = [];
  const emit = (message: string) => added.push({ keyword: "errorMessage", instancePath: here, params: {}, message, schema: s, data: undefined });
  if (em && typeof em === "object" && !Array.isArray(em)) {
    const byKeyword = em as Record<string, unknown>;
    for (const [keyword, message] of Object.entries(byKeyword)) {
      if (keyword === "properties" || keyword === "items" || keyword === "_" || typeof message !== "string") continue;
      const hits = slice.filter((e) => !e.used && e.keyword === keyword && e.schema === s && samePath(e));
      if (!hits.length) continue;
      for (const e of hits) e.used = true;
      emit(message);
    }
    const children = byKeyword.properties;
    if (children && typeof children === "object") {
      for (const [child, message] of Object.entries(children as Record<string, unknown>)) {
        const hits = slice.filter((e) => !e.used && e.keyword !== "errorMessage" && below(e) && e.instancePath[here.length] === child);
        if (!hits.length || typeof message !== "string") continue;
        for (const e of hits) e.used = true;
        emit(message);
      }
    }
  }
  const all = typeof em === "string" ? em : em && typeof em === "object" ? (em as Record<string, unknown>)._ : undefined;
  if (typeof all === "string") {
    // Every error this schema produced, through `$ref`s too (as Spectral's precompiled validators do).
    const hits = slice.filter((e) => !e.used && e.keyword !== "errorMessage" && below(e));
    if (hits.length) {
      for (const e of hits) e.used = true;
      emit(all);
    }
  }
  if (!added.length) return;
  errors.length = start;
  for (const e of slice) if (!e.used) errors.push(e);
  for (const e of added) errors.push(e);
}
