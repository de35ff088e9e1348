/**
 * @module The document-rule walk: the OpenAPI skeleton Spectral's `spectral:oas` aliases name (path items,
 * operations, parameters, security requirements, responses, links, servers), through `$ref`s, in document
 * order. It touches O(operations) nodes, so it runs in full on every lint; rules may keep state in closures.
 */

import type { DocumentContext, DocumentVisitor, RawProblem, Segment } from "../rule";
import type { OasVersion } from "../types";
import { isObject } from "../util/is-object";
import type { RefResolver } from "../util/resolver";

export interface BoundDocumentRule {
  index: number;
  visitor: DocumentVisitor;
  store: WeakMap<object, unknown>;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
// Spectral 1.23 predates 3.2's `query` method; Portico treats it as the operation it is (see docs/lint.md).
const METHODS_3_2 = [...METHODS, "query"];

type HookName = Exclude<keyof DocumentVisitor, "Root">;

interface Located {
  node: Record<string, unknown>;
  path: readonly Segment[];
}

/** Runs every document rule's hooks over the skeleton of `root`. */
export function walkSkeleton(
  root: Record<string, unknown>,
  version: OasVersion,
  rules: readonly BoundDocumentRule[],
  resolver: RefResolver,
  refs: ReadonlySet<string>,
): RawProblem[] {
  const problems: RawProblem[] = [];
  let current = -1;
  const ctx: DocumentContext & { path: readonly Segment[]; key: Segment | undefined; store: WeakMap<object, unknown> } = {
    version,
    root,
    path: [],
    key: undefined,
    store: new WeakMap(),
    resolve: (v) => resolver.resolve(v),
    resolveAt: (v, p) => resolver.resolveAt(v, p),
    referencedPointers: () => refs,
    report(message, path) {
      problems.push({ rule: current, message, path: [...(path ?? ctx.path)] });
    },
  };
  const call = (hook: HookName, node: unknown, path: readonly Segment[], key: Segment | undefined): void => {
    for (const rule of rules) {
      const fn = rule.visitor[hook] as ((n: unknown, c: DocumentContext) => void) | undefined;
      if (!fn) continue;
      current = rule.index;
      ctx.store = rule.store;
      ctx.path = path;
      ctx.key = key;
      try {
        fn(node, ctx);
      } catch {
        // A rule tripping on an unforeseen shape reports nothing rather than failing the lint.
      }
    }
  };
  const each = (list: unknown, path: readonly Segment[], fn: (value: unknown, path: readonly Segment[], key: Segment) => void): void => {
    const r = resolver.resolveAt(list, path);
    if (Array.isArray(r.value)) r.value.forEach((v, i) => fn(v, [...r.path, i], i));
    else if (isObject(r.value)) for (const k of Object.keys(r.value)) fn(r.value[k], [...r.path, k], k);
  };
  /** Calls `hook` on the resolved value; returns it with its source path when it is an object. */
  const visit = (value: unknown, path: readonly Segment[], key: Segment, hook: HookName): Located | undefined => {
    const r = resolver.resolveAt(value, path);
    const objectOnly = hook === "PathItem" || hook === "Operation" || hook === "Response" || hook === "Link";
    if (!objectOnly || isObject(r.value)) call(hook, r.value, r.path, key);
    return isObject(r.value) ? { node: r.value, path: r.path } : undefined;
  };
  const is3 = version !== "2.0";

  const server = (value: unknown, path: readonly Segment[], key: Segment): void => void visit(value, path, key, "Server");
  const parameter = (value: unknown, path: readonly Segment[], key: Segment): void => void visit(value, path, key, "Parameter");
  const security = (value: unknown, path: readonly Segment[], key: Segment): void => void visit(value, path, key, "SecurityRequirement");
  const link = (value: unknown, path: readonly Segment[], key: Segment): void => {
    const l = visit(value, path, key, "Link");
    if (l && "server" in l.node) visit(l.node.server, [...l.path, "server"], "server", "Server");
  };
  const response = (value: unknown, path: readonly Segment[], key: Segment): void => {
    const r = visit(value, path, key, "Response");
    if (r && is3) each(r.node.links, [...r.path, "links"], link);
  };

  for (const rule of rules) {
    current = rule.index;
    ctx.store = rule.store;
    ctx.path = [];
    ctx.key = undefined;
    try {
      rule.visitor.Root?.enter?.(root, ctx);
    } catch {
      // see call()
    }
  }
  if (is3) each(root.servers, ["servers"], server);
  each(root.security, ["security"], security);
  const methods = version === "3.2" ? METHODS_3_2 : METHODS;
  each(root.paths, ["paths"], (value, path, key) => {
    const item = visit(value, path, key, "PathItem");
    if (!item) return;
    if (is3) each(item.node.servers, [...item.path, "servers"], server);
    each(item.node.parameters, [...item.path, "parameters"], parameter);
    for (const method of Object.keys(item.node)) {
      if (!methods.includes(method)) continue;
      const op = visit(item.node[method], [...item.path, method], method, "Operation");
      if (!op) continue;
      each(op.node.parameters, [...op.path, "parameters"], parameter);
      each(op.node.security, [...op.path, "security"], security);
      if (is3) each(op.node.servers, [...op.path, "servers"], server);
      each(op.node.responses, [...op.path, "responses"], response);
    }
  });
  if (!is3) each(root.responses, ["responses"], response);
  const components = is3 && isObject(root.components) ? root.components : undefined;
  if (components) {
    each(components.responses, ["components", "responses"], response);
    each(components.parameters, ["components", "parameters"], parameter);
    each(components.links, ["components", "links"], link);
  }
  for (const rule of rules) {
    current = rule.index;
    ctx.store = rule.store;
    ctx.path = [];
    ctx.key = undefined;
    try {
      rule.visitor.Root?.leave?.(root, ctx);
    } catch {
      // see call()
    }
  }
  return problems;
}
