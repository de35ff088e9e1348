/**
 * @module The document-rule walk: the OpenAPI skeleton Spectral's `spectral:oas` aliases name (path items,
 * operations, parameters, security requirements, responses, links, servers), through `$ref`s, in document
 * order. It touches O(operations) nodes. Rules may keep state in closures; `unit` rules' problems inside a path
 * item are kept per path item (by identity, with the `$ref`s resolved there and the context they read), so a
 * session's run re-calls them only in the path items an edit changed.
 */

import type { DocumentContext, DocumentVisitor, RawProblem, Segment } from "../rule";
import type { OasVersion } from "../types";
import { isObject } from "../util/is-object";
import type { RefDeps, RefResolver } from "../util/resolver";

export interface BoundDocumentRule {
  index: number;
  visitor: DocumentVisitor;
  store: WeakMap<object, unknown>;
  /** See DocumentRule.unit. */
  unit: boolean;
}

/** What the `unit` rules reported inside one path item, and what that depended on. */
interface UnitEntry {
  problems: RawProblem[];
  /** `$ref` → node reached, for every reference resolved while walking the item. */
  deps: RefDeps;
  /** {@link unitContext} when the entry was made. */
  context: readonly unknown[];
  /** The last resolver under which `deps` were found to hold (RefResolver.depsHold). */
  checked: RefResolver;
}

/** Per path item (its value as written), per key (the path): the `unit` rules' problems. Lives with a rule plan. */
export type SkeletonCache = WeakMap<object, Map<string, UnitEntry>>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
// Spectral 1.23 predates 3.2's `query` method; Portico treats it as the operation it is (see docs/lint.md).
const METHODS_3_2 = [...METHODS, "query"];

type HookName = Exclude<keyof DocumentVisitor, "Root">;

interface Located {
  node: Record<string, unknown>;
  path: readonly Segment[];
}

/** Runs every document rule's hooks over the skeleton of `root`. `cache` keeps `unit` rules' path-item problems between runs. */
export function walkSkeleton(
  root: Record<string, unknown>,
  version: OasVersion,
  rules: readonly BoundDocumentRule[],
  resolver: RefResolver,
  refs: ReadonlySet<string>,
  cache: SkeletonCache = new WeakMap(),
): RawProblem[] {
  const problems: RawProblem[] = [];
  let current = -1;
  let currentUnit = false;
  /** While a path item is walked in full: the references resolved and the `unit` rules' problems. */
  let deps: RefDeps | undefined;
  let recorded: RawProblem[] | undefined;
  /** The rules whose hooks run: all of them, or outside `unit` ones in a path item whose problems are kept. */
  let active: readonly BoundDocumentRule[] = rules;
  const others = rules.filter((r) => !r.unit);
  // Which hooks a kept path item still has to reach for the other rules (usually only Operation).
  const othersNeed = new Set(others.flatMap((r) => Object.keys(r.visitor)));
  const need = (hook: HookName): boolean => active === rules || othersNeed.has(hook);
  const ctx: DocumentContext & { path: readonly Segment[]; key: Segment | undefined; store: WeakMap<object, unknown> } = {
    version,
    root,
    path: [],
    key: undefined,
    store: new WeakMap(),
    resolve: (v) => resolver.resolve(v, deps),
    resolveAt: (v, p) => resolver.resolveAt(v, p, deps),
    referencedPointers: () => refs,
    report(message, path) {
      const problem = { rule: current, message, path: [...(path ?? ctx.path)] };
      problems.push(problem);
      if (recorded && currentUnit) recorded.push(problem);
    },
  };
  const call = (hook: HookName, node: unknown, path: readonly Segment[], key: Segment | undefined): void => {
    for (const rule of active) {
      const fn = rule.visitor[hook] as ((n: unknown, c: DocumentContext) => void) | undefined;
      if (!fn) continue;
      current = rule.index;
      currentUnit = rule.unit;
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
    const r = resolver.resolveAt(list, path, deps);
    if (Array.isArray(r.value)) r.value.forEach((v, i) => fn(v, [...r.path, i], i));
    else if (isObject(r.value)) for (const k of Object.keys(r.value)) fn(r.value[k], [...r.path, k], k);
  };
  /** Calls `hook` on the resolved value; returns it with its source path when it is an object. */
  const visit = (value: unknown, path: readonly Segment[], key: Segment, hook: HookName): Located | undefined => {
    const r = resolver.resolveAt(value, path, deps);
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
  const walkItem = (value: unknown, path: readonly Segment[], key: Segment): void => {
    const item = visit(value, path, key, "PathItem");
    if (!item) return;
    const servers = need("Server");
    const parameters = need("Parameter");
    const responses = need("Response") || need("Link") || servers;
    if (is3 && servers) each(item.node.servers, [...item.path, "servers"], server);
    if (parameters) each(item.node.parameters, [...item.path, "parameters"], parameter);
    for (const method of Object.keys(item.node)) {
      if (!methods.includes(method)) continue;
      const op = visit(item.node[method], [...item.path, method], method, "Operation");
      if (!op) continue;
      if (parameters) each(op.node.parameters, [...op.path, "parameters"], parameter);
      if (need("SecurityRequirement")) each(op.node.security, [...op.path, "security"], security);
      if (is3 && servers) each(op.node.servers, [...op.path, "servers"], server);
      if (responses) each(op.node.responses, [...op.path, "responses"], response);
    }
  };
  const context = unitContext(root, version, resolver);
  each(root.paths, ["paths"], (value, path, key) => {
    if (!isObject(value)) return walkItem(value, path, key);
    const name = String(key);
    let byKey = cache.get(value);
    const kept = byKey?.get(name);
    if (kept && sameContext(kept.context, context) && resolver.depsHold(kept.deps, kept.checked)) {
      kept.checked = resolver;
      for (const p of kept.problems) problems.push(p);
      // Only the rules that are not `unit` still need this item's hooks (none: nothing to walk).
      if (!others.length) return;
      active = others;
      try {
        walkItem(value, path, key);
      } finally {
        active = rules;
      }
      return;
    }
    deps = new Map();
    recorded = [];
    try {
      walkItem(value, path, key);
      if (!byKey) cache.set(value, (byKey = new Map()));
      byKey.set(name, { problems: recorded, deps, context, checked: resolver });
    } finally {
      deps = undefined;
      recorded = undefined;
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

/**
 * What `unit` rules may read besides their path item (DocumentRule.unit): the version, the root `tags` and each
 * tag, `components` and its `securitySchemes`, 2.0 `securityDefinitions`, each as resolved. Compared by identity.
 */
function unitContext(root: Record<string, unknown>, version: OasVersion, resolver: RefResolver): unknown[] {
  const tags = resolver.resolve(root.tags);
  const components = resolver.resolve(root.components);
  const out: unknown[] = [version, tags, components === undefined ? undefined : isObject(components) ? resolver.resolve(components.securitySchemes) : components, resolver.resolve(root.securityDefinitions)];
  if (Array.isArray(tags)) for (const tag of tags) out.push(resolver.resolve(tag));
  return out;
}

function sameContext(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

