/** @module The Visual view's navigation: what a definition holds that the forms can edit, in source order. */
import { isMap, isScalar, isSeq } from "yaml";
import type { Document, Node, YAMLMap } from "yaml";
import { toPointer } from "./pointer";
import type { OutlineEntry, SpecVersion } from "./protocol";
import { deref, nodeAt } from "./yaml-source";

import { METHODS_FOR_FORMS } from "./methods";

/** HTTP methods that make an operation (OpenAPI 3.2 adds `query`). */
export const METHODS = METHODS_FOR_FORMS;

function str(node: unknown): string | undefined {
  return isScalar(node) && node.value != null ? String(node.value) : undefined;
}

function get(doc: Document, map: unknown, key: string): unknown {
  const m = deref(doc, map);
  if (!isMap(m)) return undefined;
  const pair = m.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair ? deref(doc, pair.value) : undefined;
}

function operationsOf(doc: Document, container: unknown, base: string[], kind: "operation" | "webhook" | "callback", line: (o: number) => number, out: OutlineEntry[], callbacks?: OutlineEntry[]): void {
  const map = deref(doc, container);
  if (!isMap(map)) return;
  for (const pair of (map as YAMLMap).items) {
    if (!isScalar(pair.key)) continue;
    const path = String(pair.key.value);
    const item = deref(doc, pair.value);
    if (!isMap(item)) continue;
    for (const opPair of item.items) {
      const method = isScalar(opPair.key) ? String(opPair.key.value) : "";
      if (!(METHODS as readonly string[]).includes(method)) continue;
      const op = deref(doc, opPair.value);
      const tags = get(doc, op, "tags");
      out.push({
        kind,
        pointer: toPointer([...base, path, method]),
        label: str(get(doc, op, "summary")) ?? str(get(doc, op, "operationId")) ?? `${method.toUpperCase()} ${path}`,
        method,
        path,
        summary: str(get(doc, op, "summary")),
        deprecated: (get(doc, op, "deprecated") as { value?: unknown } | undefined)?.value === true,
        tags: isSeq(tags) ? tags.items.map(str).filter((t): t is string => !!t) : [],
        line: line((opPair.key as Node).range?.[0] ?? 0),
      });
      // An operation's callbacks (one level: callbacks of callbacks are edited in the Source view).
      const cbs = callbacks ? deref(doc, get(doc, op, "callbacks")) : undefined;
      if (callbacks && isMap(cbs)) {
        for (const cb of cbs.items) {
          if (!isScalar(cb.key)) continue;
          const name = String(cb.key.value);
          const before = callbacks.length;
          operationsOf(doc, cb.value, [...base, path, method, "callbacks", name], "callback", line, callbacks);
          for (let i = before; i < callbacks.length; i++) callbacks[i].label = name;
        }
      }
    }
  }
}

/** The line of the node at `path` (its key), if it exists. */
function nodeLine(doc: Document, path: string[], line: (offset: number) => number): number | undefined {
  const parent = nodeAt(doc, path.slice(0, -1));
  const m = deref(doc, parent);
  const pair = isMap(m) ? m.items.find((p) => isScalar(p.key) && p.key.value === path[path.length - 1]) : undefined;
  return pair && isScalar(pair.key) && pair.key.range ? line(pair.key.range[0]) : undefined;
}

/** Outline entries in a fixed order: General, Servers, Tags, Security, operations, webhooks, callbacks, schemas. */
export function buildOutline(doc: Document, spec: SpecVersion | undefined, line: (offset: number) => number): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const root = deref(doc, doc.contents);
  const at = (key: string) => {
    const m = deref(doc, root);
    const pair = isMap(m) ? m.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
    return pair && isScalar(pair.key) && pair.key.range ? line(pair.key.range[0]) : 1;
  };
  out.push({ kind: "general", pointer: "/info", label: "General", line: at("info") });
  if (spec === "2.0") out.push({ kind: "servers", pointer: "/host", label: "Host and schemes", line: at("host") });
  else out.push({ kind: "servers", pointer: "/servers", label: "Servers", line: at("servers") });
  out.push({ kind: "tags", pointer: "/tags", label: "Tags", line: at("tags") });
  if (spec === "2.0") out.push({ kind: "security", pointer: "/securityDefinitions", label: "Security", line: at("securityDefinitions") });
  else out.push({ kind: "security", pointer: "/components/securitySchemes", label: "Security", line: nodeLine(doc, ["components", "securitySchemes"], line) ?? at("security") });
  const callbacks: OutlineEntry[] = [];
  operationsOf(doc, get(doc, root, "paths"), ["paths"], "operation", line, out, spec === "2.0" ? undefined : callbacks);
  operationsOf(doc, get(doc, root, "webhooks"), ["webhooks"], "webhook", line, out, callbacks);
  out.push(...callbacks);
  const schemasPath = spec === "2.0" ? ["definitions"] : ["components", "schemas"];
  const schemas = nodeAt(doc, schemasPath);
  if (isMap(schemas)) {
    for (const pair of schemas.items) {
      if (!isScalar(pair.key)) continue;
      const name = String(pair.key.value);
      out.push({ kind: "schema", pointer: toPointer([...schemasPath, name]), label: name, line: pair.key.range ? line(pair.key.range[0]) : 1 });
    }
  }
  return out;
}
