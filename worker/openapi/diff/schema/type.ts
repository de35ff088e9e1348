/** @module Schema check family: type, format and nullability (3.0 `nullable` and 3.1 type arrays read alike). */

import type { NormSchema } from "./normalize";
import type { Direction, RelChange } from "./rel";

/** Type/format changes: widening breaks responses, narrowing or an incomparable change breaks requests. */
export function compareType(base: NormSchema, rev: NormSchema, direction: Direction, out: RelChange[]): void {
  const at = { path: [], base: base.at, revision: rev.at };
  const bt = base.types;
  const rt = rev.types;
  const showTypes = (t: string[] | undefined) => (t === undefined ? "any" : t.join("|") || "null");
  const sameTypes = bt === rt || (bt !== undefined && rt !== undefined && bt.length === rt.length && bt.every((t, i) => t === rt[i]));
  if (sameTypes) {
    if (base.format === rev.format) {
      // nothing
    } else if (rev.format === undefined) out.push({ ...at, suffix: "type-generalized", what: `format ${base.format} removed` });
    else if (base.format === undefined) out.push({ ...at, suffix: direction === "request" ? "type-changed" : "type-specialized", what: `format ${rev.format} added` });
    else out.push({ ...at, suffix: "type-changed", what: `format changed from ${base.format} to ${rev.format}` });
  } else {
    const what = `type changed from ${showTypes(bt)} to ${showTypes(rt)}`;
    if (bt === undefined) out.push({ ...at, suffix: direction === "request" ? "type-changed" : "type-specialized", what });
    else if (rt === undefined) out.push({ ...at, suffix: "type-generalized", what });
    else if (bt.length > 1 || rt.length > 1) {
      const widened = bt.every((t) => rt.includes(t));
      const narrowed = rt.every((t) => bt.includes(t));
      out.push({ ...at, suffix: widened ? "list-of-types-widened" : narrowed ? "list-of-types-narrowed" : "type-changed", what });
    } else if (bt[0] === "integer" && rt[0] === "number") out.push({ ...at, suffix: "type-generalized", what });
    else if (bt[0] === "number" && rt[0] === "integer") out.push({ ...at, suffix: direction === "request" ? "type-changed" : "type-specialized", what });
    else out.push({ ...at, suffix: "type-changed", what });
  }
  if (base.nullable !== rev.nullable) out.push({ ...at, suffix: rev.nullable ? "became-nullable" : "became-not-nullable", what: rev.nullable ? "became nullable" : "is no longer nullable" });
}
