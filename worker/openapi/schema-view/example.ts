/** @module Example values generated from a {@link SchemaView}, so examples agree with what the viewer shows. */
import { EXAMPLE_BUDGET } from "../budgets";
import { bodyOf } from "./shape";
import type { SchemaView } from "./types";

/** Options for {@link exampleFromView}. */
export interface ExampleOptions {
  /** Which option of each variant group to follow, by group path; default the first. */
  pickVariant?: (group: number, view: SchemaView) => number;
}

const STRING_FORMATS: Record<string, string> = {
  "date-time": "2024-01-01T00:00:00Z",
  date: "2024-01-01",
  time: "12:00:00Z",
  duration: "P1D",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com",
  "uri-reference": "/example",
  iri: "https://example.com",
  url: "https://example.com",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  byte: "U3dhZ2dlciByb2Nrcw==",
  binary: "<binary>",
  password: "********",
  regex: "^.*$",
  "json-pointer": "/a/b",
};

/** A bound from a definition as a count: a finite number ≥ 0 rounded up; `fallback` for anything else (strings, NaN). */
function count(value: unknown, fallback: number): number {
  if (typeof value !== "number" || Number.isNaN(value)) return fallback;
  if (value === Infinity) return Infinity;
  return Math.max(0, Math.ceil(value));
}

function constraint(view: SchemaView, keyword: string): unknown {
  return view.constraints?.find((c) => c.keyword === keyword)?.value;
}

function stringExample(view: SchemaView, run: Run): string {
  const fixed = view.format ? STRING_FORMATS[view.format] : undefined;
  if (fixed !== undefined) return fixed;
  const min = count(constraint(view, "minLength"), 0);
  const max = count(constraint(view, "maxLength"), Infinity);
  let s = "string";
  if (s.length < min) {
    // `minLength: 400000000` must not build a 400 MB string: cap it and say the example does not satisfy it.
    if (min > EXAMPLE_BUDGET.maxStringLength) run.truncated = true;
    s = s.padEnd(Math.min(min, EXAMPLE_BUDGET.maxStringLength), "x");
  }
  if (s.length > max) s = s.slice(0, max);
  return s;
}

function numberExample(view: SchemaView, integer: boolean): number {
  const min = constraint(view, "minimum");
  const exMin = constraint(view, "exclusiveMinimum");
  const max = constraint(view, "maximum");
  const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  let n = 0;
  if (finite(min)) n = exMin === true ? min + (integer ? 1 : 0.5) : min;
  else if (finite(exMin)) n = exMin + (integer ? 1 : 0.5);
  else if (finite(max) && max < 0) n = max;
  const step = constraint(view, "multipleOf");
  if (finite(step) && step > 0) {
    const stepped = Math.ceil(n / step) * step;
    if (Number.isFinite(stepped)) n = stepped;
  }
  const out = integer ? Math.ceil(n) : n;
  return Number.isFinite(out) ? out : 0;
}

/** The state of one generation: budget spent, and whether anything was cut. */
interface Run {
  options: ExampleOptions;
  nodes: number;
  chars: number;
  truncated: boolean;
}

/** A generated example and whether a budget or an unsatisfiable bound cut it (the page says "example truncated"). */
export interface GeneratedExample {
  value: unknown;
  truncated: boolean;
}

/**
 * An example value for `view`: its own `const`, example, default or first enum value when it has one,
 * else one generated from its type. Cycle nodes yield `undefined` (the property is omitted), variants
 * follow their first option (the discriminator property set to that option's value), and readOnly or
 * writeOnly properties are absent simply because the view (built with a mode) has already dropped them.
 * Runs within {@link EXAMPLE_BUDGET}: strings and arrays are capped whatever `minLength`/`minItems` say, and
 * generation stops at the node, depth and size budgets; `truncated` says the value was cut or misses a bound.
 */
export function generateExample(view: SchemaView, options: ExampleOptions = {}): GeneratedExample {
  const run: Run = { options, nodes: 0, chars: 0, truncated: false };
  const value = generate(view, run, 0);
  return { value, truncated: run.truncated };
}

/** {@link generateExample}'s value alone. */
export function exampleFromView(view: SchemaView, options: ExampleOptions = {}): unknown {
  return generateExample(view, options).value;
}

/** Rough JSON size of a declared value, without serialising a huge one. */
function weight(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (typeof value === "object" && value !== null) return 40;
  return 8;
}

function spent(run: Run): boolean {
  if (run.nodes > EXAMPLE_BUDGET.maxNodes || run.chars > EXAMPLE_BUDGET.maxChars) {
    run.truncated = true;
    return true;
  }
  return false;
}

function generate(view: SchemaView, run: Run, depth: number): unknown {
  if (view.cycle || view.never || view.unresolved) return undefined;
  // A view cut by its budget shows only part of the schema: what is generated from it is partial too.
  if (view.truncated) run.truncated = true;
  run.nodes++;
  if (depth > EXAMPLE_BUDGET.maxDepth || spent(run)) {
    run.truncated = true;
    return undefined;
  }
  const declared = view.const ? view.const.value
    : view.examples && view.examples.length > 0 ? view.examples[0]
      : view.default ? view.default.value
        : view.enum && view.enum.length > 0 ? view.enum[0].value : undefined;
  if (declared !== undefined || view.const || view.examples?.length || view.default || view.enum?.length) {
    run.chars += weight(declared);
    return declared;
  }
  const body = bodyOf(view); // a "same as above" node: its own facts, the children of the node it links to
  let base: unknown = undefined;
  const type = view.types.find((t) => t !== "null") ?? (view.types.includes("null") ? "null" : undefined);
  if (type === "object" || (!type && body.properties)) {
    const obj: Record<string, unknown> = {};
    for (const p of body.properties ?? []) {
      if (spent(run)) break;
      const v = generate(p.schema, run, depth + 1);
      if (v !== undefined) { obj[p.name] = v; run.chars += p.name.length + 4; }
    }
    if (!body.properties?.length && body.additionalProperties && body.additionalProperties.types.length > 0) {
      const v = generate(body.additionalProperties, run, depth + 1);
      if (v !== undefined) obj.key = v;
    }
    base = obj;
  } else if (type === "array") {
    base = arrayExample(view, body, run, depth);
  } else if (type === "string") base = stringExample(view, run);
  else if (type === "integer" || type === "number") base = numberExample(view, type === "integer");
  else if (type === "boolean") base = true;
  else if (type === "null") base = null;
  run.chars += typeof base === "string" ? base.length + 2 : 6;
  if (!body.variants || body.variants.length === 0) return base;
  return body.variants.reduce<unknown>((acc, group, gi) => {
    const pick = run.options.pickVariant?.(gi, body) ?? 0;
    const option = group.options[Math.min(pick, group.options.length - 1)];
    if (!option) return acc;
    let chosen = generate(option.schema, run, depth + 1);
    const prop = group.discriminator?.propertyName;
    if (prop && option.discriminatorValue !== undefined && isPlainObject(chosen)) chosen = { ...chosen, [prop]: option.discriminatorValue };
    if (isPlainObject(acc) && isPlainObject(chosen)) return { ...acc, ...chosen };
    return chosen === undefined ? acc : chosen;
  }, base);
}

/** Tuple items as declared, else `minItems` items (at least one, at most the budget's) unless `maxItems` is 0. */
function arrayExample(view: SchemaView, body: SchemaView, run: Run, depth: number): unknown[] {
  if (body.prefixItems) {
    const out: unknown[] = [];
    for (const x of body.prefixItems) {
      if (spent(run)) break;
      const v = generate(x, run, depth + 1);
      if (v !== undefined) out.push(v);
    }
    return out;
  }
  const min = count(constraint(view, "minItems"), 0);
  const max = count(constraint(view, "maxItems"), Infinity);
  if (max === 0) return [];
  if (min > EXAMPLE_BUDGET.maxItems) run.truncated = true;
  const n = Math.max(1, Math.min(min, EXAMPLE_BUDGET.maxItems, max));
  const item = body.items ? generate(body.items, run, depth + 1) : undefined;
  if (item === undefined) return [];
  // The same value n times: generating it once keeps a dense schema under `items` from costing n times.
  return Array.from({ length: n }, () => item);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
