/**
 * @module Finds every `$ref` string under a value, iteratively (any depth, shared nodes visited once), skipping
 * members that are data rather than description (see data-keys.ts), so a `$ref` inside an example is never
 * mistaken for a reference.
 */

import { UNLIMITED, type WorkBudget } from "../work-budget";
import { isDataMember } from "./data-keys";
import type { PathSegment } from "./pointer";

/**
 * Calls `onRef(ref, path)` for each `$ref` string under `root`. `path` is the live path of the object holding the
 * `$ref` (relative to `root`, prefixed with `basePath`); copy it if you keep it. Spends one unit of `budget` per
 * object or array visited (throws its BudgetExceeded when that runs out).
 */
export function walkRefs(root: unknown, onRef: (ref: string, path: readonly PathSegment[]) => void, basePath: readonly PathSegment[] = [], budget: WorkBudget = UNLIMITED): void {
  if (root === null || typeof root !== "object") return;
  const seen = new Set<object>();
  const path: PathSegment[] = [...basePath];
  const base = basePath.length;
  const values: object[] = [root];
  const keys: PathSegment[] = [""];
  const depths: number[] = [0];
  while (values.length) {
    const node = values.pop()!;
    const key = keys.pop()!;
    const depth = depths.pop()!;
    path.length = base + depth;
    if (depth > 0) path[base + depth - 1] = key;
    if (seen.has(node)) continue;
    seen.add(node);
    budget.spend("walking $refs");
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child = node[i];
        if (child !== null && typeof child === "object") {
          values.push(child);
          keys.push(i);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") onRef(record.$ref, path);
    const ownKey = path.length > 0 ? path[path.length - 1] : undefined;
    const parentKey = path.length > 1 ? path[path.length - 2] : undefined;
    const entries = Object.keys(record);
    for (let i = entries.length - 1; i >= 0; i--) {
      const k = entries[i];
      const child = record[k];
      if (child === null || typeof child !== "object") continue;
      if (isDataMember(k, child, ownKey, parentKey)) continue;
      values.push(child);
      keys.push(k);
      depths.push(depth + 1);
    }
  }
}
