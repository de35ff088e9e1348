/** @module Schema check family: bounds (maxLength, minLength, maximum, minimum, maxItems, minItems) and pattern. */

import type { NormSchema, NumericKeyword } from "./normalize";
import { show, type Direction, type RelChange } from "./rel";

const MAXIMA: [NumericKeyword, string][] = [["maxLength", "max-length"], ["maximum", "max"], ["maxItems", "max-items"]];
const MINIMA: [NumericKeyword, string][] = [["minLength", "min-length"], ["minimum", "min"], ["minItems", "min-items"]];

/** A narrower bound breaks requests; a wider one breaks responses (clients validated the old range). */
export function compareConstraints(base: NormSchema, rev: NormSchema, direction: Direction, out: RelChange[]): void {
  const at = { path: [], base: base.at, revision: rev.at };
  for (const [key, name] of MAXIMA) {
    const b = base.numbers[key];
    const r = rev.numbers[key];
    if (b === r) continue;
    if (direction === "request") {
      if (b === undefined) out.push({ ...at, suffix: `${name}-set`, what: `${key} ${r} set` });
      else if (r !== undefined) out.push({ ...at, suffix: r < b ? `${name}-decreased` : `${name}-increased`, what: `${key} changed from ${b} to ${r}` });
    } else if (b !== undefined) {
      if (r === undefined) out.push({ ...at, suffix: key === "maxLength" ? "max-length-unset" : `${name}-increased`, what: `${key} ${b} removed` });
      else if (r > b) out.push({ ...at, suffix: `${name}-increased`, what: `${key} changed from ${b} to ${r}` });
    }
  }
  for (const [key, name] of MINIMA) {
    const b = base.numbers[key];
    const r = rev.numbers[key];
    if (b === r) continue;
    if (direction === "request") {
      if (b === undefined) out.push({ ...at, suffix: `${name}-set`, what: `${key} ${r} set` });
      else if (r !== undefined) out.push({ ...at, suffix: r > b ? `${name}-increased` : `${name}-decreased`, what: `${key} changed from ${b} to ${r}` });
    } else if (b !== undefined) {
      if (r === undefined) out.push({ ...at, suffix: key === "minItems" ? "min-items-unset" : `${name}-decreased`, what: `${key} ${b} removed` });
      else if (r < b) out.push({ ...at, suffix: `${name}-decreased`, what: `${key} changed from ${b} to ${r}` });
    }
  }
  if (base.pattern !== rev.pattern) {
    if (base.pattern === undefined) out.push({ ...at, suffix: "pattern-added", what: `pattern ${show(rev.pattern)} added` });
    else if (rev.pattern === undefined) out.push({ ...at, suffix: "pattern-removed", what: `pattern ${show(base.pattern)} removed` });
    else out.push({ ...at, suffix: "pattern-changed", what: `pattern changed from ${show(base.pattern)} to ${show(rev.pattern)}` });
  }
}
