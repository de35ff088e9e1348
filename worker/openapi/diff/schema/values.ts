/** @module Schema check family: enum, const and default values. */

import type { NormSchema } from "./normalize";
import { show, valueKey, type Direction, type RelChange } from "./rel";

/**
 * Enum values: one removed breaks a request (clients send it), one added may break a response consumer (WARN).
 * With `constAsEnum` (parameters) a const reads as a one-value enum.
 */
export function compareValues(base: NormSchema, rev: NormSchema, direction: Direction, out: RelChange[], constAsEnum: boolean): void {
  const at = { path: [], base: base.at, revision: rev.at };
  const be = base.enum ?? (constAsEnum && base.const ? [base.const.value] : undefined);
  const re = rev.enum ?? (constAsEnum && rev.const ? [rev.const.value] : undefined);
  if (be && re) {
    const bk = new Set(be.map(valueKey));
    const rk = new Set(re.map(valueKey));
    for (const v of be) if (!rk.has(valueKey(v))) out.push({ ...at, suffix: "enum-value-removed", what: `enum value ${show(v)} removed` });
    for (const v of re) if (!bk.has(valueKey(v))) out.push({ ...at, suffix: "enum-value-added", what: `enum value ${show(v)} added` });
  } else if (!be && re && direction === "request") out.push({ ...at, suffix: "became-enum", what: `restricted to the values ${show(re)}` });
  // x-extensible-enum lists known values, not all values: only one that clients send disappearing matters.
  if (direction === "request" && base.extensibleEnum && rev.extensibleEnum) {
    const rk = new Set(rev.extensibleEnum.map(valueKey));
    for (const v of base.extensibleEnum) if (!rk.has(valueKey(v))) out.push({ ...at, suffix: "x-extensible-enum-value-removed", what: `x-extensible-enum value ${show(v)} removed` });
  }
  if (!constAsEnum) {
    const bc = base.const;
    const rc = rev.const;
    if (bc && !rc) out.push({ ...at, suffix: "const-removed", what: `const ${show(bc.value)} removed` });
    else if (!bc && rc) out.push({ ...at, suffix: "const-added", what: `const ${show(rc.value)} added` });
    else if (bc && rc && valueKey(bc.value) !== valueKey(rc.value)) out.push({ ...at, suffix: "const-changed", what: `const changed from ${show(bc.value)} to ${show(rc.value)}` });
  }
  const bd = base.default;
  const rd = rev.default;
  if (bd && !rd) out.push({ ...at, suffix: "default-value-removed", what: `default ${show(bd.value)} removed` });
  else if (!bd && rd) out.push({ ...at, suffix: "default-value-added", what: `default ${show(rd.value)} added` });
  else if (bd && rd && valueKey(bd.value) !== valueKey(rd.value)) out.push({ ...at, suffix: "default-value-changed", what: `default changed from ${show(bd.value)} to ${show(rd.value)}` });
}
