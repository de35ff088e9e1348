/** @module A diff check: one rule family, run once per diff over the context. */

import type { DiffContext } from "./context";

export interface DiffCheck {
  /** The family's name (docs/diff.md groups ids by it). */
  name: string;
  run(ctx: DiffContext): void;
}

/** `x-sunset` (oasdiff's extension; `YYYY-MM-DD` or an RFC 3339 date-time) as epoch ms; undefined when absent, NaN when unreadable. */
export function sunsetOf(node: Record<string, unknown>): number | undefined {
  const value = node["x-sunset"];
  if (value === undefined) return undefined;
  if (typeof value !== "string") return Number.NaN;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
}
