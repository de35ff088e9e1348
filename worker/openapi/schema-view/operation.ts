/** @module The parts of an operation slice that every consumer needs resolved the same way: parameters, body, responses. */
import type { OperationSlice } from "../model/types";
import { deref, isObject, type JsonObject } from "./refs";

/** A parameter object after `$ref` resolution. */
export interface ResolvedParameter {
  name: string;
  in: "path" | "query" | "querystring" | "header" | "cookie";
  required: boolean;
  raw: JsonObject;
  /** `schema`, or the schema of the first `content` entry (parameters may use `content` instead). */
  schema?: unknown;
  /** The media type of `content`, when the parameter uses one. */
  mediaType?: string;
}

const LOCATIONS = new Set(["path", "query", "querystring", "header", "cookie"]);
// OpenAPI 3.x §4.8.12.1: header parameters with these names are ignored (the protocol sets them).
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

/**
 * The effective parameters of an operation: the path item's, overridden by the operation's own with the same
 * name and location, in declaration order (path item first). Unresolvable or malformed entries are skipped.
 * @see https://spec.openapis.org/oas/v3.1.1.html#operation-object (parameters)
 */
export function effectiveParameters(slice: OperationSlice): ResolvedParameter[] {
  const byKey = new Map<string, ResolvedParameter>();
  const own = Array.isArray(slice.operation.parameters) ? slice.operation.parameters : [];
  for (const raw of [...slice.pathParameters, ...own]) {
    const p = deref(raw, slice.refs).value;
    if (!isObject(p) || typeof p.name !== "string" || typeof p.in !== "string" || !LOCATIONS.has(p.in)) continue;
    if (p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
    const param: ResolvedParameter = { name: p.name, in: p.in as ResolvedParameter["in"], required: p.in === "path" || p.required === true, raw: p };
    if (p.schema !== undefined) param.schema = p.schema;
    else if (isObject(p.content)) {
      const [mediaType, media] = Object.entries(p.content)[0] ?? [];
      if (mediaType) { param.mediaType = mediaType; if (isObject(media)) param.schema = media.schema; }
    }
    const key = `${p.in}:${p.in === "header" ? p.name.toLowerCase() : p.name}`;
    byKey.delete(key);
    byKey.set(key, param);
  }
  return [...byKey.values()];
}

/** The request body object, resolved, or undefined. */
export function requestBodyOf(slice: OperationSlice): JsonObject | undefined {
  const body = deref(slice.operation.requestBody, slice.refs).value;
  return isObject(body) ? body : undefined;
}

/** Responses by status code (and `default`), each resolved; declaration order kept. */
export function responsesOf(slice: OperationSlice): [string, JsonObject][] {
  const responses = slice.operation.responses;
  if (!isObject(responses)) return [];
  const out: [string, JsonObject][] = [];
  for (const [code, raw] of Object.entries(responses)) {
    if (code.startsWith("x-")) continue;
    const r = deref(raw, slice.refs).value;
    if (isObject(r)) out.push([code, r]);
  }
  return out;
}

/** Media types of a `content` map in order, each resolved. */
export function mediaTypesOf(content: unknown, refs: Record<string, unknown>): [string, JsonObject][] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([type, m]) => [type, (deref(m, refs).value ?? {}) as JsonObject] as [string, JsonObject]).filter(([, m]) => isObject(m));
}

/** True for JSON media types (`application/json`, `application/problem+json`, `text/json`, `*\/*` ...json). */
export function isJsonMediaType(type: string): boolean {
  const base = type.split(";")[0].trim().toLowerCase();
  return base === "application/json" || base === "text/json" || base.endsWith("+json") || base === "*/*";
}
