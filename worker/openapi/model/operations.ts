/**
 * @module Finds every operation of a normalised (3.x) document in document order: path operations (the eight
 * HTTP methods, 3.2 `query` and `additionalOperations`), then webhook operations (3.1+), then callback operations
 * of both, with slugs made unique across all of them.
 * @see https://spec.openapis.org/oas/v3.2.0#path-item-object
 */

import { isObject } from "./pointer";
import type { PathSegment } from "./pointer";
import { resolveObjectRef } from "./path-item";
import { callbackSlug, dedupeSlugs, operationSlug, webhookSlug } from "./slug";
import type { BuildIssue, OperationKind, OperationSummary, SpecVersion } from "./types";

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
/** Callbacks inside callback operations are followed this many levels deep. */
const MAX_CALLBACK_DEPTH = 4;

/** One operation found in the document, with what its slice needs. */
export interface OperationEntry {
  summary: OperationSummary;
  operation: Record<string, unknown>;
  /** The effective Path Item that holds it (`$ref` followed). */
  pathItem: Record<string, unknown>;
  /** Where it is written in the document. */
  location: PathSegment[];
}

interface Found {
  kind: OperationKind;
  method: string;
  path: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
  location: PathSegment[];
  natural: string;
  parentSlug?: string;
  callbackName?: string;
}

/** Lists operations, webhooks and callbacks; structural problems go to `issues`. */
export function collectOperations(document: Record<string, unknown>, version: SpecVersion, issues: BuildIssue[]): OperationEntry[] {
  const first: Found[] = [];
  const each = (container: unknown, where: PathSegment[], label: string, visit: (name: string, item: Record<string, unknown>) => void) => {
    if (!isObject(container)) return;
    for (const name of Object.keys(container)) {
      if (name.startsWith("x-")) continue;
      const item = resolveObjectRef(document, container[name]);
      if (item) visit(name, item);
      else issues.push(issue(`invalid-${label.replace(/ /g, "-")}`, `${label[0].toUpperCase()}${label.slice(1)} ${JSON.stringify(name)} is not an object; skipped`, [...where, name]));
    }
  };
  each(document.paths, ["paths"], "path item", (path, item) => {
    for (const [method, operation, at] of operationsOf(item, version, ["paths", path], issues)) {
      first.push({ kind: "operation", method, path, operation, pathItem: item, location: at, natural: operationSlug(method, path, stringOr(operation.operationId)) });
    }
  });
  if (version !== "3.0") {
    each(document.webhooks, ["webhooks"], "path item", (name, item) => {
      for (const [method, operation, at] of operationsOf(item, version, ["webhooks", name], issues)) {
        first.push({ kind: "webhook", method, path: name, operation, pathItem: item, location: at, natural: webhookSlug(name, method) });
      }
    });
  }
  const all: { found: Found; slug: string }[] = [];
  const taken = new Set<string>();
  let level = first;
  for (let depth = 0; level.length && depth <= MAX_CALLBACK_DEPTH; depth++) {
    const slugs = dedupeSlugs(level.map((f) => f.natural), taken);
    const next: Found[] = [];
    level.forEach((found, i) => {
      const slug = slugs[i];
      taken.add(slug);
      all.push({ found, slug });
      each(found.operation.callbacks, [...found.location, "callbacks"], "callback", (callbackName, callback) => {
        each(callback, [...found.location, "callbacks", callbackName], "path item", (expression, item) => {
          for (const [method, operation, at] of operationsOf(item, version, [...found.location, "callbacks", callbackName, expression], issues)) {
            next.push({ kind: "callback", method, path: expression, operation, pathItem: item, location: at, natural: callbackSlug(slug, callbackName, method), parentSlug: slug, callbackName });
          }
        });
      });
    });
    level = next;
  }
  reportDuplicateIds(all, issues);
  const rank = { operation: 0, webhook: 1, callback: 2 };
  return all
    .map(({ found, slug }, order) => ({ entry: toEntry(found, slug), order }))
    .sort((a, b) => rank[a.entry.summary.kind] - rank[b.entry.summary.kind] || a.order - b.order)
    .map((x) => x.entry);
}

/** [method, operation, location] for each operation of a Path Item, in document order. */
function operationsOf(item: Record<string, unknown>, version: SpecVersion, where: PathSegment[], issues: BuildIssue[]): [string, Record<string, unknown>, PathSegment[]][] {
  const out: [string, Record<string, unknown>, PathSegment[]][] = [];
  const add = (method: string, value: unknown, at: PathSegment[]) => {
    if (isObject(value)) out.push([method, value, at]);
    else issues.push(issue("invalid-operation", `${method.toUpperCase()} ${describe(where)} is not an operation object; skipped`, at));
  };
  for (const key of Object.keys(item)) {
    if (HTTP_METHODS.has(key) || (key === "query" && version === "3.2")) add(key, item[key], [...where, key]);
    else if (key === "additionalOperations" && version === "3.2" && isObject(item.additionalOperations)) {
      for (const [method, op] of Object.entries(item.additionalOperations)) add(method, op, [...where, key, method]);
    }
  }
  return out;
}

function toEntry(found: Found, slug: string): OperationEntry {
  const op = found.operation;
  const summary: OperationSummary = {
    slug,
    kind: found.kind,
    method: found.method,
    path: found.path,
    ...(stringOr(op.operationId) !== undefined ? { operationId: op.operationId as string } : {}),
    ...(stringOr(op.summary) !== undefined ? { summary: op.summary as string } : {}),
    tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [],
    deprecated: op.deprecated === true,
    ...(found.parentSlug !== undefined ? { parentSlug: found.parentSlug, callbackName: found.callbackName } : {}),
  };
  return { summary, operation: op, pathItem: found.pathItem, location: found.location };
}

function reportDuplicateIds(all: { found: Found; slug: string }[], issues: BuildIssue[]): void {
  const firstById = new Map<string, Found>();
  for (const { found, slug } of all) {
    const id = stringOr(found.operation.operationId);
    if (id === undefined) continue;
    const earlier = firstById.get(id);
    if (!earlier) firstById.set(id, found);
    else {
      const message = `operationId ${JSON.stringify(id)} is also used by ${earlier.method.toUpperCase()} ${earlier.path}; this operation's page is "${slug}"`;
      issues.push({ ...issue("duplicate-operation-id", message, [...found.location, "operationId"]), severity: "warning" });
    }
  }
}

function issue(rule: string, message: string, path: PathSegment[]): BuildIssue {
  return { severity: "error", rule, message, path };
}

function describe(where: PathSegment[]): string {
  return String(where[where.length - 1]);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
