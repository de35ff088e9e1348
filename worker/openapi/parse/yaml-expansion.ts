/**
 * @module Bounds what YAML aliases can expand to. The `yaml` library shares aliased nodes (no copy) and caps the
 * alias count, but shared nodes still multiply when serialised, can nest past the depth limit through chains,
 * and `&a [*a]` yields a cycle. One iterative post-order pass over unique nodes measures all three.
 */

import type { ParseError } from "./types";

/** Expanded node count allowed per unique node (plus a floor), i.e. how much aliases may multiply the data. */
const EXPANSION_FACTOR = 8;
const EXPANSION_FLOOR = 200_000;

/** A problem with the alias-expanded data, or undefined when it is a finite tree within bounds. */
export function checkExpansion(data: unknown, maxDepth: number): ParseError | undefined {
  const height = new Map<object, number>();
  const size = new Map<object, number>();
  const onStack = new Set<object>();
  if (data === null || typeof data !== "object") return undefined;
  const stack: [object, boolean][] = [[data, false]];
  while (stack.length) {
    const [node, done] = stack.pop()!;
    const children = Object.values(node).filter((v): v is object => v !== null && typeof v === "object");
    if (done) {
      let h = 0;
      let s = 1;
      for (const child of children) {
        h = Math.max(h, height.get(child)!);
        s += size.get(child)!;
      }
      onStack.delete(node);
      height.set(node, h + 1);
      size.set(node, s);
      if (h + 1 > maxDepth) return { code: "too-deep", message: `Nesting deeper than ${maxDepth} levels once aliases are expanded` };
      continue;
    }
    if (height.has(node)) continue;
    if (onStack.has(node)) return { code: "aliases", message: "A YAML alias refers to a node that contains it (cycle)" };
    onStack.add(node);
    stack.push([node, true]);
    for (const child of children) {
      if (onStack.has(child)) return { code: "aliases", message: "A YAML alias refers to a node that contains it (cycle)" };
      if (!height.has(child)) stack.push([child, false]);
    }
  }
  const expanded = size.get(data)!;
  if (expanded > EXPANSION_FLOOR + EXPANSION_FACTOR * height.size) {
    return { code: "aliases", message: `YAML aliases expand the document to ${expanded} nodes from ${height.size}` };
  }
  return undefined;
}
