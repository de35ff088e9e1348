/**
 * @module Example validation errors worded as Spectral words them: better-ajv-errors' tree (drop an `anyOf`
 * error when its branches explain it, merge `enum` errors), its messages (`"name" property type must be
 * string`, `Property "x" is not expected to be here`, "Did you mean"), then Spectral's array-item and
 * combinator phrasing.
 */

import type { Segment } from "../rule";
import { bestMatch } from "../util/best-match";
import { isObject } from "../util/is-object";

/** An error in ajv's shape (what better-ajv-errors consumes). */
export interface AjvLikeError {
  keyword: string;
  instancePath: Segment[];
  message: string;
  params: Record<string, unknown>;
  /** Where in the schema the keyword sits (cfworker's keywordLocation). */
  location?: string;
  /** For oneOf/anyOf: whether some branch passed (ajv's `passingSchemas`). */
  matched?: boolean;
}

interface Node {
  errors: AjvLikeError[];
  children: Map<string, Node>;
}

/** Findings at `[...examplePath, ...errorPath]`; `examplePath`'s last segment names the example. */
export function describeErrors(errors: readonly AjvLikeError[], value: unknown, examplePath: readonly Segment[]): { message: string; path: Segment[] }[] {
  const root: Node = { errors: [], children: new Map() };
  for (const e of errors) {
    let node = root;
    for (const seg of e.instancePath) {
      const key = String(seg);
      let child = node.children.get(key);
      if (!child) node.children.set(key, (child = { errors: [], children: new Map() }));
      node = child;
    }
    node.errors.push(e);
  }
  filterRedundant(root, undefined, undefined);
  const unmatched = new Map<string, string>();
  for (const e of errors) if ((e.keyword === "oneOf" || e.keyword === "anyOf") && !e.matched) unmatched.set(e.instancePath.join("/"), e.keyword);
  const out: { message: string; path: Segment[] }[] = [];
  collect(root, (e, suggestion) => {
    let message = suggestion ? `${wordError(e, value, examplePath)}. ${suggestion}` : wordError(e, value, examplePath);
    message = describeArrayItem(message, e.instancePath);
    const combinator = unmatched.get(e.instancePath.join("/"));
    if (combinator && message.endsWith(` in ${combinator}`)) message += ". None of the schemas matched, see the other errors reported for this value";
    out.push({ message, path: [...examplePath, ...e.instancePath] });
  }, value);
  return out;
}

function filterRedundant(node: Node, parent: Node | undefined, key: string | undefined): void {
  if (node.errors.some((e) => e.keyword === "anyOf") && node.children.size > 0) node.errors = [];
  if (parent && key !== undefined && node.errors.length && node.errors.every((e) => e.keyword === "enum")) {
    const siblingsErr = [...parent.children].some(([k, n]) => k !== key && n.errors.length > 0);
    if (siblingsErr) parent.children.delete(key);
  }
  for (const [k, child] of [...node.children]) filterRedundant(child, node, k);
}

function collect(node: Node, emit: (e: AjvLikeError, suggestion?: string) => void, value: unknown): void {
  if (node.errors.length && node.errors.every((e) => e.keyword === "enum")) {
    const allowed = [...new Set(node.errors.flatMap((e) => (e.params.allowedValues as unknown[]) ?? []))];
    const first = { ...node.errors[0], params: { allowedValues: allowed } };
    const current = valueAt(value, first.instancePath);
    const best = typeof current === "string" ? bestMatch(current, allowed) : null;
    emit(first, best !== null ? `Did you mean "${best}"?` : undefined);
    return;
  }
  for (const e of node.errors) emit(e);
  for (const child of node.children.values()) collect(child, emit, value);
}

function wordError(e: AjvLikeError, value: unknown, examplePath: readonly Segment[]): string {
  const last = e.instancePath.length ? String(e.instancePath[e.instancePath.length - 1]) : examplePath.length ? String(examplePath[examplePath.length - 1]) : null;
  const pretty = last !== null ? `"${last}" property` : capitalise(typeof valueAt(value, e.instancePath));
  switch (e.keyword) {
    case "additionalProperties":
      return `Property "${String(e.params.additionalProperty)}" is not expected to be here`;
    case "type":
      return last === null ? `Value type ${e.message}` : `"${last}" property type ${e.message}`;
    case "enum": {
      const allowed = (e.params.allowedValues as unknown[]).map((v) => (typeof v === "string" ? `"${v}"` : JSON.stringify(v))).join(", ");
      return `${pretty} ${e.message}: ${allowed}`;
    }
    case "errorMessage":
      return e.message;
    default:
      return `${pretty} ${e.message.replace(/['"]/g, '"').replace(/NOT/g, "not")}`;
  }
}

function describeArrayItem(message: string, path: readonly Segment[]): string {
  const index = path.length ? String(path[path.length - 1]) : "";
  if (!/^\d+$/.test(index)) return message;
  const typePrefix = `"${index}" property type`;
  if (message.startsWith(typePrefix)) return `Item at index ${index}${message.slice(typePrefix.length)}`;
  const prefix = `"${index}" property`;
  return message.startsWith(prefix) ? `Item at index ${index}${message.slice(prefix.length)}` : message;
}

function valueAt(value: unknown, path: readonly Segment[]): unknown {
  let node = value;
  for (const s of path) node = Array.isArray(node) ? node[Number(s)] : isObject(node) ? node[s as string] : undefined;
  return node;
}

const capitalise = (word: string): string => word.replace(/^[a-z]/, (c) => c.toUpperCase());
