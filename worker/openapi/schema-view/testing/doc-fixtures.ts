/** @module Test support: slices and `refs` maps built by hand from a whole 3.x document (stands in for the model builder). */
import type { OperationKind, OperationSlice, OperationSummary, ReferenceHeader, TagInfo } from "../../model/types";
import { isObject, lookupRef } from "../refs";

/** Every local `$ref` target reachable from `root`, keyed by pointer, resolved against `doc` (transitively). */
export function refsFor(doc: Record<string, unknown>, ...roots: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const queue: unknown[] = [...roots];
  const visited = new Set<unknown>();
  while (queue.length > 0) {
    const node = queue.pop();
    if (typeof node !== "object" || node === null || visited.has(node)) continue;
    visited.add(node);
    if (Array.isArray(node)) { queue.push(...node); continue; }
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === "string" && obj.$ref.startsWith("#/") && !(obj.$ref in out)) {
      const target = lookupRef(obj.$ref, { "#/": doc, ...Object.fromEntries(Object.keys(doc).map((k) => [`#/${k}`, doc[k]])) });
      if (target !== undefined) { out[obj.$ref] = target; queue.push(target); }
    }
    if (isObject(obj.discriminator) && isObject(obj.discriminator.mapping)) {
      for (const t of Object.values(obj.discriminator.mapping)) {
        if (typeof t !== "string") continue;
        queue.push({ $ref: t.startsWith("#") ? t : `#/components/schemas/${t}` });
      }
    }
    for (const v of Object.values(obj)) queue.push(v);
  }
  return out;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** A hand-built slice of `doc` for one operation (`paths` or `webhooks`), as the model builder would store it. */
export function sliceFromDoc(doc: Record<string, unknown>, method: string, path: string,
  kind: OperationKind = "operation", slug?: string): OperationSlice {
  const container = (kind === "webhook" ? doc.webhooks : doc.paths) as Record<string, Record<string, unknown>>;
  const pathItem = container[path];
  const operation = (pathItem[method] ?? (pathItem.additionalOperations as Record<string, unknown> | undefined)?.[method]) as Record<string, unknown>;
  const summary: OperationSummary = {
    slug: slug ?? (typeof operation.operationId === "string" ? operation.operationId : `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, "-")),
    kind, method, path,
    tags: Array.isArray(operation.tags) ? (operation.tags as string[]) : [],
    deprecated: operation.deprecated === true,
  };
  if (typeof operation.operationId === "string") summary.operationId = operation.operationId;
  if (typeof operation.summary === "string") summary.summary = operation.summary;
  const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  const servers = (operation.servers ?? pathItem.servers ?? doc.servers ?? []) as unknown[];
  const security = (operation.security ?? doc.security ?? []) as Record<string, string[]>[];
  return { modelVersion: 1, summary, operation, pathParameters, servers, security, refs: refsFor(doc, operation, pathParameters) };
}

/** Every operation of `doc` as [method, path] pairs, in document order. */
export function operationsOf(doc: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const m of METHODS) if (isObject(item[m])) out.push([m, path]);
  }
  return out;
}

/** A hand-built header of a 3.x `doc` (counts computed plainly; callbacks not counted). */
export function headerFromDoc(doc: Record<string, unknown>): ReferenceHeader {
  const components = (doc.components ?? {}) as Record<string, Record<string, unknown>>;
  const schemes = Object.fromEntries(Object.entries(components.securitySchemes ?? {}).map(([k, v]) => [k, (isObject(v) && typeof v.$ref === "string" ? lookupRef(v.$ref, { "#/components": components }) : v) as Record<string, unknown>]));
  const webhooks = Object.values((doc.webhooks ?? {}) as Record<string, Record<string, unknown>>).reduce((n, item) => n + METHODS.filter((m) => isObject(item[m])).length, 0);
  const info = doc.info as ReferenceHeader["info"];
  const header: ReferenceHeader = {
    modelVersion: 1, sourceVersion: String(doc.openapi).startsWith("3.2") ? "3.2" : String(doc.openapi).startsWith("3.1") ? "3.1" : "3.0",
    openapi: String(doc.openapi), info, servers: (doc.servers ?? []) as unknown[], tags: (doc.tags ?? []) as TagInfo[],
    securitySchemes: schemes,
    counts: { operations: operationsOf(doc).length, schemas: Object.keys(components.schemas ?? {}).length, securitySchemes: Object.keys(schemes).length, webhooks, callbacks: 0 },
  };
  if (Array.isArray(doc.security)) header.security = doc.security as Record<string, string[]>[];
  return header;
}
