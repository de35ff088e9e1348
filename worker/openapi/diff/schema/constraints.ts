/** @module Schema check family: bounds (maxLength, minLength, maximum, minimum, maxItems, minItems) and pattern. */

import type { NormSchema, NumericKeyword } from "./normalize";
import { show, type Direction, type RelChange } from "./rel";

const MAXIMA: [NumericKeyword, string][] = [["maxLength", "max-length"], ["maximum", "max"], ["exclusiveMaximum", "exclusive-max"], ["maxItems", "max-items"], ["maxProperties", "max-properties"]];
const MINIMA: [NumericKeyword, string][] = [["minLength", "min-length"], ["minimum", "min"], ["exclusiveMinimum", "exclusive-min"], ["minItems", "min-items"], ["minProperties", "min-properties"]];

/** Patterns that match every string (`.*`, `^.*$`, …). */
const ANY_STRING = /^\^?(\.\*)\$?$/;

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
  const bu = base.uniqueItems;
  const ru = rev.uniqueItems;
  if (bu !== ru) {
    if (direction === "request") out.push({ ...at, suffix: ru ? "unique-items-set" : "unique-items-unset", what: ru ? "uniqueItems set" : "uniqueItems removed" });
    else if (!ru) out.push({ ...at, suffix: "unique-items-unset", what: "uniqueItems removed" });
  }
  const bm = base.numbers.multipleOf;
  const rm = rev.numbers.multipleOf;
  if (bm !== rm) {
    const what = bm === undefined ? `multipleOf ${rm} set` : rm === undefined ? `multipleOf ${bm} removed` : `multipleOf changed from ${bm} to ${rm}`;
    // A new divisor of the old one accepts every value the old one did (4 → 2 widens; 2 → 4 narrows).
    const widens = rm === undefined || (bm !== undefined && Number.isInteger(bm / rm));
    const narrows = bm === undefined || (rm !== undefined && Number.isInteger(rm / bm));
    if (direction === "request") out.push({ ...at, suffix: bm === undefined ? "multiple-of-set" : rm === undefined ? "multiple-of-unset" : widens ? "multiple-of-generalized" : "multiple-of-changed", what });
    else if (rm === undefined) out.push({ ...at, suffix: "multiple-of-unset", what });
    else if (bm !== undefined) out.push({ ...at, suffix: narrows ? "multiple-of-specialized" : "multiple-of-changed", what });
  }
  if (base.pattern !== rev.pattern) {
    if (base.pattern === undefined) out.push({ ...at, suffix: "pattern-added", what: `pattern ${show(rev.pattern)} added` });
    else if (rev.pattern === undefined) out.push({ ...at, suffix: "pattern-removed", what: `pattern ${show(base.pattern)} removed` });
    // oasdiff's "generalized": a request pattern that now matches any string accepts everything it accepted.
    else out.push({ ...at, suffix: direction === "request" && ANY_STRING.test(rev.pattern) ? "pattern-generalized" : "pattern-changed", what: `pattern changed from ${show(base.pattern)} to ${show(rev.pattern)}` });
  }
}
