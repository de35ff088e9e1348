/** @module duplicated-entry-in-enum: no `enum` lists the same value twice. */

import { ALL_VERSIONS, defineNodeRule } from "../define";
import { deepEqual } from "../util/deep-equal";

export const duplicatedEntryInEnum = defineNodeRule({
  id: "duplicated-entry-in-enum",
  scope: "node",
  severity: "warning",
  description: "Enum values must not have duplicate entry.",
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["enum"],
    object(node, ctx) {
      const values = node.enum;
      // Spectral skips a `properties` map (whose property could be named "enum").
      if (!Array.isArray(values) || ctx.keyAt(0) === "properties") return;
      ctx.spend(values.length);
      const pair = lastRepeat(values);
      if (pair) ctx.report(`"enum" property must not have duplicate items (items ## ${pair[0]} and ${pair[1]} are identical)`, ["enum"]);
    },
  }),
});

/**
 * As ajv's uniqueItems reports it: the last value that repeats an earlier one, and the nearest earlier copy. One
 * pass over values keyed by their canonical JSON, not every pair: a 100,000-value enum was 5·10⁹ comparisons
 * (issue 38). Values sharing a key are confirmed with deepEqual (NaN, which JSON spells null, equals nothing).
 */
function lastRepeat(values: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<unknown, number[]>();
  let pair: [number, number] | undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const key = value !== null && typeof value === "object" ? `\u0000${canonicalJson(value)}` : value;
    const earlier = seen.get(key);
    if (!earlier) {
      seen.set(key, [i]);
      continue;
    }
    for (let k = earlier.length - 1; k >= 0; k--) {
      if (deepEqual(value, values[earlier[k]])) {
        pair = [earlier[k], i];
        break;
      }
    }
    earlier.push(i);
  }
  return pair;
}

/** JSON text with object keys sorted: equal for values deepEqual calls equal, whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
