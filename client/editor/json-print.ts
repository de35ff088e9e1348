/** @module Printing `yaml` nodes as JSON in source key order (JSON.stringify would move integer-like keys first). */
import { isAlias, isMap, isPair, isScalar, isSeq } from "yaml";
import type { Document } from "yaml";

/**
 * JSON text of a node. `indent` 0 prints on one line; otherwise nested lines are indented by `indent` per level
 * plus `column` (the node's own column in the surrounding text).
 */
export function jsonOfNode(doc: Document, node: unknown, indent: number, column: number): string {
  const pad = (level: number) => (indent === 0 ? "" : "\n" + " ".repeat(column + level * indent));
  const sep = indent === 0 ? "," : ",";
  const colon = indent === 0 ? ":" : ": ";
  const walk = (n: unknown, level: number, seen: Set<unknown>): string => {
    if (isAlias(n)) n = n.resolve(doc);
    if (seen.has(n)) throw new Error("Alias cycle");
    if (isScalar(n)) return JSON.stringify(n.value instanceof Date ? n.value.toISOString() : typeof n.value === "bigint" ? Number(n.value) : n.value ?? null) ?? "null";
    if (isMap(n)) {
      if (n.items.length === 0) return "{}";
      seen.add(n);
      const parts = n.items.filter(isPair).map((p) => pad(level + 1) + JSON.stringify(String(isScalar(p.key) ? p.key.value : p.key)) + colon + walk(p.value, level + 1, seen));
      seen.delete(n);
      return "{" + parts.join(sep) + pad(level) + "}";
    }
    if (isSeq(n)) {
      if (n.items.length === 0) return "[]";
      seen.add(n);
      const parts = n.items.map((i) => pad(level + 1) + walk(i, level + 1, seen));
      seen.delete(n);
      return "[" + parts.join(sep) + pad(level) + "]";
    }
    return n == null ? "null" : JSON.stringify(n) ?? "null";
  };
  return walk(node, 0, new Set());
}
