/**
 * @module Schema check family: allOf parts, oneOf / anyOf variants (and an object wrapped into oneOf) and 3.1 prefixItems. Variants are matched by component name
 * when they are `$ref`s, else by position; a variant added widens (breaks responses), one removed narrows (breaks
 * requests).
 */

import type { NormSchema, SchemaRef } from "./normalize";
import type { RelChange } from "./rel";

type Recurse = (base: SchemaRef, rev: SchemaRef) => { changes: RelChange[] };
type Get = (ref: SchemaRef) => NormSchema;

/**
 * allOf parts added and removed, matched like variants (component name, else position). Their facts are merged
 * before comparing, so this reports the part itself, as oasdiff does: a part added narrows a request, one removed
 * widens a response.
 */
export function compareAllOf(base: NormSchema, rev: NormSchema, out: RelChange[], getBase: Get, getRev: Get): void {
  const bv = base.allOf ?? [];
  const rv = rev.allOf ?? [];
  if (!bv.length && !rv.length) return;
  const bl = labels(bv.map((ref) => getBase(ref).name));
  const rl = labels(rv.map((ref) => getRev(ref).name));
  // One change per schema naming every part, as oasdiff reports it.
  const removed = bl.filter((label) => !rl.includes(label));
  const added = rl.filter((label) => !bl.includes(label));
  if (removed.length) out.push({ suffix: "all-of-removed", path: [], base: base.at, revision: rev.at, what: `allOf ${removed.length > 1 ? "parts" : "part"} ${removed.join(", ")} removed` });
  if (added.length) out.push({ suffix: "all-of-added", path: [], base: base.at, revision: rev.at, what: `allOf ${added.length > 1 ? "parts" : "part"} ${added.join(", ")} added` });
}

/**
 * An object whose properties moved into oneOf alternatives (oasdiff's "wrapped in oneOf", its issue #702): the
 * revision declares no properties of its own, and every base property is declared by some alternative. Reported
 * once instead of as properties removed, a type widened and variants added.
 */
export function wrappedInOneOf(base: NormSchema, rev: NormSchema, getRev: Get): boolean {
  if (!base.properties.size || base.oneOf?.length || !rev.oneOf?.length || rev.properties.size) return false;
  const moved = new Set<string>();
  for (const ref of rev.oneOf) for (const name of getRev(ref).properties.keys()) moved.add(name);
  return [...base.properties.keys()].every((name) => moved.has(name));
}

/** oneOf / anyOf variants added and removed; matched variants compared. With `wrapped`, oneOf additions are the wrapping. */
export function compareVariants(base: NormSchema, rev: NormSchema, out: RelChange[], getBase: Get, getRev: Get, recurse: Recurse, wrapped = false): void {
  for (const key of ["oneOf", "anyOf"] as const) {
    if (wrapped && key === "oneOf") continue;
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
