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
  /** Nodes this document version's lint may still visit computing `$ref` closures ({@link CLOSURE_LIMITS}). */
  closureNodes: number;
  results: WeakMap<object, Map<object, AjvLikeError[]>>;
}

const runs = new WeakMap<object, RunCache>();

/**
 * Results kept across document versions (a lint session's edits): per raw schema node, per mode and OpenAPI
 * version, per example value (objects by identity, scalars by value). A result stands while the schema's `$ref`
 * closure (see {@link closureHolds}) reaches the same nodes; a session keeps unchanged subtrees' identity, so an
 * unchanged example and schema find their result. Weak on the schema; the scalar entries die with it.
 */
interface KeptResult {
  nullableWithoutType: boolean;
  errors: AjvLikeError[];
}
interface KeptBySchema {
  objects: WeakMap<object, KeptResult>;
  scalars: Map<unknown, KeptResult>;
}
const kept = new WeakMap<object, Map<string, KeptBySchema>>();
/** Distinct scalar examples kept per schema, mode and version (a schema's `example` plus a few media ones). */
const MAX_SCALARS = 64;

/**
 * Per raw schema node: every local `$ref` written anywhere in its subtree or in the subtrees those reach, each
 * with the node it resolved to (chains followed). If every one still resolves to the same node, the schema and
 * all it reaches are unchanged (nodes are immutable; a changed subtree is a new object).
 */
const closures = new WeakMap<object, Map<string, unknown> | null>();

/**
 * Bounds on closures (hostile input: thousands of schemas with examples, each reaching a dense graph, would make
 * them quadratic in time and memory). A schema past them has no closure (null): its results are not kept,
 * it is validated every time as before. GitHub's description: at most 60 references and 1,217 nodes a closure,
 * 73,000 nodes in all.
 */
const CLOSURE_LIMITS = { refs: 256, nodes: 5_000, nodesPerVersion: 250_000 };

/**
 * Findings for the example `value` (at `path`) against `schema`, a schema object of the document (already
 * resolved if it was a `$ref`). Spectral leaves `$ref` cycles unresolved and then silently skips examples of
 * recursive schemas; Portico validates them (docs/lint.md).
 */
export function validateExample(value: unknown, schema: Record<string, unknown>, path: readonly Segment[], mode: ExampleMode, ctx: NodeContext): ExampleFinding[] {
  // An example checked before against this schema, whose closure still reaches the same nodes: the result
  // stands (a session re-walking an edited unit re-checks only the examples the edit can change).
  const object = typeof value === "object" && value !== null;
  const key = `${mode}\u0000${ctx.version}`;
  // A changed closure voids the schema's results in every mode (the closure is shared by them).
  const closure = closureHolds(schema, ctx);
  if (closure !== "holds") kept.delete(schema);
  let byKey = kept.get(schema);
  let slot = byKey?.get(key);
  if (slot) {
    const hit = object ? slot.objects.get(value) : slot.scalars.get(value);
    if (hit) return report(hit, value, path);
  }
  const budget = runFor(ctx).patterns;
  const result = compute(value, schema, mode, ctx);
  // A result reached with the pattern budget spent may differ from a fresh lint's: it is not kept.
  if (budget.charsLeft > 0 && closure !== "none") {
    if (!byKey) kept.set(schema, (byKey = new Map()));
    if (!slot) byKey.set(key, (slot = { objects: new WeakMap(), scalars: new Map() }));
    if (object) slot.objects.set(value, result);
    else if (slot.scalars.size < MAX_SCALARS) slot.scalars.set(value, result);
  }
  return report(result, value, path);
}

function report(result: KeptResult, value: unknown, path: readonly Segment[]): ExampleFinding[] {
  if (result.nullableWithoutType) return [{ message: '"nullable" cannot be used without "type"', path: [...path] }];
  return result.errors.length ? describeErrors(result.errors, value, path) : [];
}

function runFor(ctx: NodeContext): RunCache {
  let run = runs.get(ctx.root);
  if (!run) runs.set(ctx.root, (run = { prepared: {}, patterns: createPatternBudget(), results: new WeakMap(), closureNodes: CLOSURE_LIMITS.nodesPerVersion }));
  return run;
}

/**
 * Whether `schema`'s recorded `$ref` closure still resolves to the same nodes ("holds"); else it is recomputed
 * and recorded ("changed"), or the schema has none within {@link CLOSURE_LIMITS} ("none"). Every reference is
 * resolved through `ctx`, so the fragment being walked depends on all of them and is re-walked when any changes.
 */
function closureHolds(schema: Record<string, unknown>, ctx: NodeContext): "holds" | "changed" | "none" {
  const known = closures.get(schema);
  if (known === null) return "none";
  if (known) {
    let holds = true;
    for (const [ref, target] of known) if (resolveRef(ref, ctx) !== target) holds = false;
    if (holds) return "holds";
  }
  const made = closureOf(schema, ctx);
  closures.set(schema, made);
  return made ? "changed" : "none";
}

/** The `$ref`s reachable from `schema` (through the targets of those it holds), with their targets; null past the limits. */
function closureOf(schema: Record<string, unknown>, ctx: NodeContext): Map<string, unknown> | null {
  const run = runFor(ctx);
  const out = new Map<string, unknown>();
  const seen = new Set<object>();
  const stack: object[] = [schema];
  while (stack.length) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (seen.size > CLOSURE_LIMITS.nodes || --run.closureNodes < 0 || out.size > CLOSURE_LIMITS.refs) return null;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && !out.has(ref)) {
      const target = resolveRef(ref, ctx);
      out.set(ref, target);
      if (typeof target === "object" && target !== null) stack.push(target);
    }
    for (const k of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[k];
      if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
  return out;
}

function compute(value: unknown, schema: Record<string, unknown>, mode: ExampleMode, ctx: NodeContext): KeptResult {
  const run = runFor(ctx);
  const prepared = (run.prepared[mode] ??= new PreparedSchemas(ctx.version, mode, (ref) => lookupRef(ref, ctx)));
  if (prepared.nullableWithoutType(schema)) return { nullableWithoutType: true, errors: [] };
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
  return { nullableWithoutType: false, errors };
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
  return resolveRef(ref, ctx);
}

/** The node a local `$ref` string reaches (chains followed), or undefined; recorded as a dependency of the walk. */
function resolveRef(ref: string, ctx: NodeContext): unknown {
  const probe = { $ref: ref };
  const value = ctx.resolve(probe);
  return value === probe ? undefined : value;
}
