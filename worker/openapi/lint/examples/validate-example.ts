/**
 * @module Validates one example value against its schema with @cfworker/json-schema (no code generation, so it
 * runs in Workers; schemas prepared once per document version), and reports like Spectral's `schema` function:
 * the first failure (ajv without allErrors), in better-ajv-errors' words.
 */

import { validate, type OutputUnit } from "@cfworker/json-schema";
import { firstFailure } from "./ajv-order";
import { schemaAt, toAjvErrors } from "./cfworker-errors";
import type { NodeContext, Segment } from "../rule";
import type { OasVersion } from "../types";
import { PreparedSchemas, type ExampleMode } from "./prepare-schema";
import { describeErrors, type AjvLikeError } from "./describe-errors";
import { createPatternBudget, withExample, type PatternBudget } from "./pattern-scope";

export interface ExampleFinding {
  message: string;
  path: Segment[];
}

type Lookup = Record<string, unknown>;

/** Per document version: prepared schemas per mode, and results per example value and prepared schema. */
interface RunCache {
  prepared: Partial<Record<ExampleMode, PreparedSchemas>>;
  /** The matcher budget of this document version's lint (pattern-scope.ts). */
  patterns: PatternBudget;
  results: WeakMap<object, Map<object, AjvLikeError[]>>;
}

const runs = new WeakMap<object, RunCache>();

/**
 * Findings for the example `value` (at `path`) against `schema`, a schema object of the document (already
 * resolved if it was a `$ref`). Spectral leaves `$ref` cycles unresolved and then silently skips examples of
 * recursive schemas; Portico validates them (docs/lint.md).
 */
export function validateExample(value: unknown, schema: Record<string, unknown>, path: readonly Segment[], mode: ExampleMode, ctx: NodeContext): ExampleFinding[] {
  let run = runs.get(ctx.root);
  if (!run) runs.set(ctx.root, (run = { prepared: {}, patterns: createPatternBudget(), results: new WeakMap() }));
  const prepared = (run.prepared[mode] ??= new PreparedSchemas(ctx.version, mode, (ref) => lookupRef(ref, ctx)));
  if (prepared.nullableWithoutType(schema)) return [{ message: '"nullable" cannot be used without "type"', path: [...path] }];
  const root = prepared.prepare(schema);
  const cacheable = typeof value === "object" && value !== null;
  let errors = cacheable ? run.results.get(value)?.get(root) : undefined;
  if (!errors) {
    // Patterns are checked through stand-ins computed from this example's strings (pattern-scope.ts).
    errors = withExample(value, run.patterns, () => check(value, root, prepared.lookup, ctx.version));
    if (cacheable) {
      let bySchema = run.results.get(value);
      if (!bySchema) run.results.set(value, (bySchema = new Map()));
      bySchema.set(root, errors);
    }
  }
  return errors.length ? describeErrors(errors, value, path) : [];
}

function check(value: unknown, root: Record<string, unknown>, lookup: Lookup, version: OasVersion): AjvLikeError[] {
  const draft = version === "3.1" || version === "3.2" ? "2020-12" : "4";
  let result: { valid: boolean; errors: OutputUnit[] };
  try {
    // Most examples are valid: a short-circuiting pass first, all errors only to pick ajv's first one.
    result = validate(value, root, draft, lookup as never, true);
    if (result.valid) return [];
    result = validate(value, root, draft, lookup as never, false);
  } catch {
    return []; // an unresolvable reference: Spectral cannot compile the schema and reports nothing either
  }
  if (result.valid) return [];
  return firstFailure(toAjvErrors(result.errors, value, (location) => schemaAt(lookup, root, location)), lookup, root);
}

function lookupRef(ref: string, ctx: NodeContext): unknown {
  const probe = { $ref: ref };
  const value = ctx.resolve(probe);
  return value === probe ? undefined : value;
}
