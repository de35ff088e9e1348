/**
 * @module What the Try-it panel (client/islands/try-it/panel.tsx) needs of one operation, built on the server and loaded
 * by the panel when a reader opens it (`GET …/{operation}/try.json`), so operation pages carry no more than a URL:
 * servers, every parameter with its prefilled value and the constraints the panel checks before sending, the body
 * prefilled from the example the code samples show, and the security requirements with their schemes.
 */
import type { OperationSlice, ReferenceHeader } from "../model/types";
import { buildSampleInput } from "./build-input";
import { declaredValue } from "./parameters";
import { fillPlaceholders, fillPlaceholdersDeep } from "./variables";
import type { NameValue, SampleServer } from "./types";
import { viewSchema } from "../schema-view/build-view";
import { exampleFromView } from "../schema-view/example";
import { effectiveParameters, isJsonMediaType, mediaTypesOf, requestBodyOf } from "../schema-view/operation";
import { deref, isObject, type JsonObject } from "../schema-view/refs";

/** The JSON Schema keywords the panel checks on a parameter value (JSON Schema 2020-12 §6; 3.0's boolean exclusives folded in). */
export interface TryConstraints {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  enum?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  /** ECMA-262 source; checked on a linear-time matcher (re2js) only, capped in length. */
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  /** An array's item constraints (one level: a parameter's items are scalars in practice). */
  items?: TryConstraints;
}

/** One parameter field of the panel. */
export interface TryParam {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  /** Prefilled value (the code sample's; arrays comma-joined); "" when nothing is declared. */
  value: string;
  /** Shown as the placeholder of an empty optional field (its default, or first enum value). */
  hint?: string;
  constraints: TryConstraints;
  /** An array in a query: `explode` (OpenAPI's default for `form`) repeats the name per item, else comma-joined. */
  explode?: boolean;
  deprecated?: boolean;
}

/** A security scheme as the panel handles it (OpenAPI 3.1 §4.8.27 Security Scheme Object). */
export interface TryScheme {
  type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS" | "unknown";
  /** apiKey: where the key goes, and its header, query parameter or cookie name. */
  in?: "header" | "query" | "cookie";
  name?: string;
  /** http: `basic`, `bearer` or another scheme name (lower case). */
  scheme?: string;
  description?: string;
}

/** The request body: how the panel edits it and what it starts with. */
export interface TryBody {
  mediaType: string;
  kind: "json" | "form" | "multipart" | "text" | "binary";
  required: boolean;
  /** json/text: the code sample's body text. */
  text?: string;
  /** form/multipart: one field per property of the example; `file` fields get a file picker. */
  fields?: { name: string; value: string; file?: boolean }[];
}

/** Everything the panel shows for one operation. */
export interface TrySpec {
  api: string;
  version: string;
  /** The proxy's `operationId`: the operation's, else its page slug. */
  operationId: string;
  method: string;
  /** The path template (`/shipments/{shipmentId}`). */
  path: string;
  servers: SampleServer[];
  params: TryParam[];
  /** The code sample's extra headers (Accept). */
  headers: NameValue[];
  body?: TryBody;
  /** Security requirements (alternatives; an empty one means "no auth"), each the schemes it needs with their scopes. */
  security: { scheme: string; scopes: string[] }[][];
  schemes: Record<string, TryScheme>;
  /** The reader's API key from "API key once" (worker/access/api-key.ts): fills apiKey and bearer schemes. */
  apiKey?: string;
}

const NUMBER_KEYS = ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"] as const;
const TYPES = new Set(["string", "integer", "number", "boolean", "array", "object"]);

/** The constraints of `schema` after `$ref` (an allOf's parts are not merged: their keywords are not checked). */
export function constraintsOf(schema: unknown, refs: Record<string, unknown>, depth = 0): TryConstraints {
  const s = deref(schema, refs).value;
  if (!isObject(s)) return {};
  const out: TryConstraints = {};
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is TryConstraints["type"] & string => typeof t === "string" && TYPES.has(t));
  if (types.length === 1) out.type = types[0];
  const values = Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : undefined;
  if (values && values.length > 0 && values.length <= 500 && values.every((v) => v === null || typeof v !== "object")) {
    out.enum = values.filter((v) => v !== null).map(String);
  }
  for (const key of NUMBER_KEYS) if (typeof s[key] === "number" && Number.isFinite(s[key])) out[key] = s[key] as number;
  // 3.1 numbers; 3.0's booleans turn minimum/maximum exclusive.
  if (typeof s.exclusiveMinimum === "number") out.exclusiveMinimum = s.exclusiveMinimum;
  else if (s.exclusiveMinimum === true && out.minimum !== undefined) { out.exclusiveMinimum = out.minimum; delete out.minimum; }
  if (typeof s.exclusiveMaximum === "number") out.exclusiveMaximum = s.exclusiveMaximum;
  else if (s.exclusiveMaximum === true && out.maximum !== undefined) { out.exclusiveMaximum = out.maximum; delete out.maximum; }
  if (typeof s.pattern === "string" && s.pattern.length <= 2_000) out.pattern = s.pattern;
  if (typeof s.format === "string") out.format = s.format.slice(0, 64);
  if (out.type === "array" && s.items !== undefined && depth === 0) out.items = constraintsOf(s.items, refs, 1);
  return out;
}

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

function hasOwnExample(raw: JsonObject): boolean {
  return raw.example !== undefined || isObject(raw.examples);
}

/** Media types sent as text the reader can edit; anything else is a file. */
function bodyKind(mediaType: string): TryBody["kind"] {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  if (base === "application/x-www-form-urlencoded") return "form";
  if (base.startsWith("multipart/")) return "multipart";
  if (isJsonMediaType(base)) return "json";
  if (base.startsWith("text/") || /[/+]xml$/.test(base) || base === "application/yaml" || base === "application/graphql") return "text";
  return "binary";
}

const SCHEME_TYPES = new Set(["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"]);

/** The scheme objects the panel needs, by name (only the ones the operation's requirements name). */
function schemesOf(security: { scheme: string }[][], declared: Record<string, Record<string, unknown>>): Record<string, TryScheme> {
  const out: Record<string, TryScheme> = {};
  for (const { scheme: name } of security.flat()) {
    const s = declared[name];
    if (!isObject(s)) { out[name] = { type: "unknown" }; continue; }
    const scheme: TryScheme = { type: typeof s.type === "string" && SCHEME_TYPES.has(s.type) ? (s.type as TryScheme["type"]) : "unknown" };
    if (scheme.type === "apiKey") {
      if (s.in === "header" || s.in === "query" || s.in === "cookie") scheme.in = s.in;
      if (typeof s.name === "string") scheme.name = s.name;
      if (!scheme.in || !scheme.name) scheme.type = "unknown";
    }
    if (scheme.type === "http") scheme.scheme = typeof s.scheme === "string" ? s.scheme.toLowerCase() : "bearer";
    if (typeof s.description === "string") scheme.description = s.description.slice(0, 300);
    out[name] = scheme;
  }
  return out;
}

/**
 * The panel's spec for `slice`, as `api`/`version` name it. Values match the code sample (same example, same
 * generated body); optional parameters start empty unless they carry an example of their own (as in the sample).
 */
export function buildTrySpec(slice: OperationSlice, header: ReferenceHeader, api: string, version: string, origin?: string): TrySpec {
  const { input, body: sampleBody } = buildSampleInput(slice, header, origin ? { origin } : {});
  const refs = slice.refs;
  const params: TryParam[] = [];
  for (const p of effectiveParameters(slice)) {
    if (p.in === "querystring") continue; // a whole-query parameter: sent as the sample's pairs (not editable here)
    const own = p.required || hasOwnExample(p.raw);
    let v = own ? declaredValue(p, refs) : undefined;
    if (v === undefined && p.required && p.schema !== undefined) v = exampleFromView(viewSchema(p.schema, refs, { mode: "request", maxNodes: 200 }));
    const constraints = constraintsOf(p.schema, refs);
    const param: TryParam = { name: p.name, in: p.in, required: p.required, value: Array.isArray(v) ? v.map(scalar).join(",") : scalar(v), constraints };
    if (!own) {
      const hint = declaredValue(p, refs);
      if (hint !== undefined && hint !== null) param.hint = scalar(hint).slice(0, 200);
    }
    if (constraints.type === "array" && p.in === "query") param.explode = p.raw.explode !== false;
    if (p.raw.deprecated === true) param.deprecated = true;
    params.push(param);
  }
  const security = slice.security.filter(isObject).map((req) =>
    Object.entries(req).map(([scheme, scopes]) => ({ scheme, scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : [] })));
  const spec: TrySpec = {
    api, version,
    operationId: slice.summary.operationId ?? slice.summary.slug,
    method: input.method,
    path: slice.summary.path,
    servers: input.servers,
    params,
    headers: input.headers.filter((h) => !params.some((p) => p.in === "header" && p.name.toLowerCase() === h.name.toLowerCase())),
    security,
    schemes: schemesOf(security, header.securitySchemes),
  };
  const requestBody = requestBodyOf(slice);
  if (requestBody) {
    const types = mediaTypesOf(requestBody.content, refs).map(([t]) => t);
    const mediaType = input.body?.mimeType ?? sampleBody?.mediaType ?? types[0];
    if (mediaType) {
      const kind = bodyKind(mediaType);
      const body: TryBody = { mediaType, kind, required: requestBody.required === true };
      if ((kind === "json" || kind === "text") && input.body?.text !== undefined) body.text = input.body.text;
      if ((kind === "form" || kind === "multipart") && input.body?.params) {
        body.fields = input.body.params.map((f) => ({ name: f.name, value: f.fileName ? "" : f.value ?? "", ...(f.fileName ? { file: true } : {}) }));
      }
      spec.body = body;
    }
  }
  return spec;
}

/**
 * `spec` with `{{name}}` placeholders filled from `values` (the content's defaults under the reader's own values,
 * as the page fills its code samples) in parameter values and hints, extra headers, the body and servers, so the
 * panel starts from exactly what the samples show. Constraints (patterns) are left as written.
 */
export function fillTrySpec(spec: TrySpec, values: Readonly<Record<string, string>>): TrySpec {
  if (Object.keys(values).length === 0) return spec;
  return {
    ...spec,
    params: spec.params.map((p) => ({ ...p, value: fillPlaceholders(p.value, values), ...(p.hint !== undefined ? { hint: fillPlaceholders(p.hint, values) } : {}) })),
    headers: fillPlaceholdersDeep(spec.headers, values),
    servers: fillPlaceholdersDeep(spec.servers, values),
    ...(spec.body ? { body: fillPlaceholdersDeep(spec.body, values) } : {}),
  };
}
