/** @module Example values generated from a {@link SchemaView}, so examples agree with what the viewer shows. */
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

function stringExample(view: SchemaView): string {
  const fixed = view.format ? STRING_FORMATS[view.format] : undefined;
  if (fixed !== undefined) return fixed;
  const min = Number(view.constraints?.find((c) => c.keyword === "minLength")?.value ?? 0);
  const max = Number(view.constraints?.find((c) => c.keyword === "maxLength")?.value ?? Infinity);
  let s = "string";
  if (s.length < min) s = s.padEnd(min, "x");
  if (s.length > max) s = s.slice(0, Math.max(0, max));
  return s;
}

function numberExample(view: SchemaView, integer: boolean): number {
  const get = (k: string) => view.constraints?.find((c) => c.keyword === k)?.value;
  const min = get("minimum");
  const exMin = get("exclusiveMinimum");
  const max = get("maximum");
  let n = 0;
  if (typeof min === "number") n = exMin === true ? min + (integer ? 1 : 0.5) : min;
  else if (typeof exMin === "number") n = exMin + (integer ? 1 : 0.5);
  else if (typeof max === "number" && max < 0) n = max;
  const step = get("multipleOf");
  if (typeof step === "number" && step > 0) n = Math.ceil(n / step) * step;
  return integer ? Math.ceil(n) : n;
}

/**
 * An example value for `view`: its own `const`, example, default or first enum value when it has one,
 * else one generated from its type. Cycle nodes yield `undefined` (the property is omitted), variants
 * follow their first option (the discriminator property set to that option's value), and readOnly or
 * writeOnly properties are absent simply because the view (built with a mode) has already dropped them.
 */
export function exampleFromView(view: SchemaView, options: ExampleOptions = {}): unknown {
  return generate(view, options, 0);
}

function generate(view: SchemaView, options: ExampleOptions, depth: number): unknown {
  if (view.cycle || view.never || view.unresolved || depth > 40) return undefined;
  if (view.const) return view.const.value;
  if (view.examples && view.examples.length > 0) return view.examples[0];
  if (view.default) return view.default.value;
  if (view.enum && view.enum.length > 0) return view.enum[0].value;
  const body = bodyOf(view); // a "same as above" node: its own facts, the children of the node it links to
  let base: unknown = undefined;
  const type = view.types.find((t) => t !== "null") ?? (view.types.includes("null") ? "null" : undefined);
  if (type === "object" || (!type && body.properties)) {
    const obj: Record<string, unknown> = {};
    for (const p of body.properties ?? []) {
      const v = generate(p.schema, options, depth + 1);
      if (v !== undefined) obj[p.name] = v;
    }
    if (!body.properties?.length && body.additionalProperties && body.additionalProperties.types.length > 0) {
      const v = generate(body.additionalProperties, options, depth + 1);
      if (v !== undefined) obj.key = v;
    }
    base = obj;
  } else if (type === "array") {
    if (body.prefixItems) base = body.prefixItems.map((x) => generate(x, options, depth + 1)).filter((x) => x !== undefined);
    else {
      const item = body.items ? generate(body.items, options, depth + 1) : undefined;
      base = item === undefined ? [] : [item];
    }
  } else if (type === "string") base = stringExample(view);
  else if (type === "integer" || type === "number") base = numberExample(view, type === "integer");
  else if (type === "boolean") base = true;
  else if (type === "null") base = null;
  if (!body.variants || body.variants.length === 0) return base;
  return body.variants.reduce<unknown>((acc, group, gi) => {
    const pick = options.pickVariant?.(gi, body) ?? 0;
    const option = group.options[Math.min(pick, group.options.length - 1)];
    if (!option) return acc;
    let chosen = generate(option.schema, options, depth + 1);
    const prop = group.discriminator?.propertyName;
    if (prop && option.discriminatorValue !== undefined && isPlainObject(chosen)) chosen = { ...chosen, [prop]: option.discriminatorValue };
    if (isPlainObject(acc) && isPlainObject(chosen)) return { ...acc, ...chosen };
    return chosen === undefined ? acc : chosen;
  }, base);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
