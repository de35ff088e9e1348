/** @module Parameter values for samples: the definition's examples, else generated from the same schema view. */
import { viewSchema } from "../schema-view/build-view";
import { exampleFromView } from "../schema-view/example";
import type { ResolvedParameter } from "../schema-view/operation";
import { deref, isObject } from "../schema-view/refs";
import type { NameValue } from "./types";

/** The value a parameter's own example, examples, default, enum or const gives; undefined when none does. */
export function declaredValue(param: ResolvedParameter, refs: Record<string, unknown>): unknown {
  const raw = param.raw;
  if (raw.example !== undefined) return raw.example;
  if (isObject(raw.examples)) {
    for (const ex of Object.values(raw.examples)) {
      const v = deref(ex, refs).value;
      if (isObject(v) && "value" in v) return v.value;
      if (isObject(v) && "dataValue" in v) return v.dataValue;
    }
  }
  if (param.schema === undefined) return undefined;
  const view = viewSchema(param.schema, refs, { mode: "request", maxNodes: 50 });
  return view.examples?.[0] ?? view.const?.value ?? view.default?.value ?? view.enum?.[0]?.value;
}

/** True when the parameter carries an example of its own (not just a default). */
function hasOwnExample(param: ResolvedParameter): boolean {
  return param.raw.example !== undefined || isObject(param.raw.examples);
}

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Path parameter placeholder when nothing is declared: `OWNER` for `{owner}` (what readers replace). */
export function pathPlaceholder(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, "_").replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/** Fills `{name}` segments of `path` with declared values (URL-encoded) or NAME placeholders. */
export function fillPath(path: string, params: ResolvedParameter[], refs: Record<string, unknown>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = params.find((x) => x.in === "path" && x.name === name);
    const v = p ? declaredValue(p, refs) : undefined;
    return v === undefined || v === null || typeof v === "object" ? pathPlaceholder(name) : encodeURIComponent(String(v));
  });
}

/**
 * Name/value pairs for required parameters (declared value, else generated from the schema view) and
 * optional ones that carry an example, in `location`. Arrays explode into repeated pairs (OpenAPI's
 * default `form` style), or are comma-joined when `explode: false`.
 */
export function parameterPairs(params: ResolvedParameter[], location: ResolvedParameter["in"], refs: Record<string, unknown>): NameValue[] {
  const out: NameValue[] = [];
  for (const p of params) {
    if (p.in !== location || (!p.required && !hasOwnExample(p))) continue;
    let v = declaredValue(p, refs);
    if (v === undefined && p.schema !== undefined) v = exampleFromView(viewSchema(p.schema, refs, { mode: "request", maxNodes: 200 }));
    if (v === undefined) v = "";
    if (Array.isArray(v) && p.raw.explode !== false && location === "query") for (const item of v) out.push({ name: p.name, value: scalar(item) });
    else out.push({ name: p.name, value: Array.isArray(v) ? v.map(scalar).join(",") : scalar(v) });
  }
  return out;
}

/**
 * Pairs for a 3.2 `in: querystring` parameter (the whole query string as one value): its example's
 * `serializedValue` when given, else its value (object fields become pairs). @see OpenAPI 3.2 §4.8.12.2
 */
export function querystringPairs(params: ResolvedParameter[], refs: Record<string, unknown>): NameValue[] {
  const p = params.find((x) => x.in === "querystring");
  if (!p || (!p.required && !hasOwnExample(p))) return [];
  let serialized: string | undefined;
  let value: unknown;
  const examples = isObject(p.raw.examples) ? Object.values(p.raw.examples) : [];
  for (const raw of examples) {
    const ex = deref(raw, refs).value;
    if (!isObject(ex)) continue;
    if (typeof ex.serializedValue === "string") serialized = ex.serializedValue;
    value = ex.dataValue ?? ex.value;
    break;
  }
  if (serialized === undefined && value === undefined) value = p.raw.example ?? (p.schema !== undefined ? exampleFromView(viewSchema(p.schema, refs, { mode: "request", maxNodes: 200 })) : undefined);
  if (serialized !== undefined) return [...new URLSearchParams(serialized)].map(([name, v]) => ({ name, value: v }));
  if (isObject(value)) return Object.entries(value).map(([name, v]) => ({ name, value: scalar(v) }));
  return typeof value === "string" ? [...new URLSearchParams(value)].map(([name, v]) => ({ name, value: v })) : [];
}
