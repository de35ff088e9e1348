/**
 * @module Schema check family: oneOf / anyOf variants and 3.1 prefixItems. Variants are matched by component name
 * when they are `$ref`s, else by position; a variant added widens (breaks responses), one removed narrows (breaks
 * requests).
 */

import type { NormSchema, SchemaRef } from "./normalize";
import type { RelChange } from "./rel";

type Recurse = (base: SchemaRef, rev: SchemaRef) => { changes: RelChange[] };
type Get = (ref: SchemaRef) => NormSchema;

/** oneOf / anyOf variants added and removed; matched variants compared. */
export function compareVariants(base: NormSchema, rev: NormSchema, out: RelChange[], getBase: Get, getRev: Get, recurse: Recurse): void {
  for (const key of ["oneOf", "anyOf"] as const) {
    const bv = base[key] ?? [];
    const rv = rev[key] ?? [];
    if (!bv.length && !rv.length) continue;
    const bl = labels(bv.map((ref) => getBase(ref).name));
    const rl = labels(rv.map((ref) => getRev(ref).name));
    const suffix = key === "oneOf" ? "one-of" : "any-of";
    bv.forEach((ref, i) => {
      const j = rl.indexOf(bl[i]);
      if (j === -1) out.push({ suffix: `${suffix}-removed`, path: [], base: ref.at, revision: rev.at, what: `${key} variant ${bl[i]} removed` });
      else for (const c of recurse(ref, rv[j]).changes) out.push({ ...c, path: [`${key}/${bl[i]}`, ...c.path] });
    });
    rv.forEach((ref, j) => {
      if (!bl.includes(rl[j])) out.push({ suffix: `${suffix}-added`, path: [], base: base.at, revision: ref.at, what: `${key} variant ${rl[j]} added` });
    });
  }
  const bp = base.prefixItems ?? [];
  const rp = rev.prefixItems ?? [];
  const common = Math.min(bp.length, rp.length);
  for (let i = 0; i < common; i++) for (const c of recurse(bp[i], rp[i]).changes) out.push({ ...c, path: [`prefixItems/${i}`, ...c.path] });
  for (let i = common; i < bp.length; i++) out.push({ suffix: "prefix-items-removed", path: [], base: bp[i].at, revision: rev.at, what: `prefixItems entry ${i} removed` });
  for (let i = common; i < rp.length; i++) out.push({ suffix: "prefix-items-added", path: [], base: base.at, revision: rp[i].at, what: `prefixItems entry ${i} added` });
}

/** Variant labels: the component name, else the position; a name used twice keeps its position too. */
function labels(names: (string | undefined)[]): string[] {
  return names.map((name, i) => (name === undefined || names.indexOf(name) !== i || names.lastIndexOf(name) !== i ? `${name ?? ""}#${i}` : name));
}
