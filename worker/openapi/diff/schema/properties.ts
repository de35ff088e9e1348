/**
 * @module Schema check family: object properties. Direction decides: a property that becomes required breaks a
 * request but not a response; one removed from a response breaks clients that read it when it was required. A
 * readOnly property is never sent in requests and a writeOnly one never read from responses, so their guards apply.
 */

import type { NormSchema, SchemaRef } from "./normalize";
import type { Direction, RelChange } from "./rel";

type Recurse = (base: SchemaRef, rev: SchemaRef) => { changes: RelChange[]; base: NormSchema; rev: NormSchema };
type Get = (ref: SchemaRef) => NormSchema;

/** Properties added, removed, changed in requiredness, readOnly/writeOnly or deprecation; then each common one compared. */
export function compareProperties(base: NormSchema, rev: NormSchema, direction: Direction, out: RelChange[], getBase: Get, getRev: Get, recurse: Recurse): void {
  for (const [name, ref] of base.properties) {
    if (rev.properties.has(name)) continue;
    const prop = getBase(ref);
    const required = base.required.has(name);
    const at = { path: [name], base: ref.at };
    if (direction === "request") out.push({ ...at, id: "request-property-removed", what: "removed" });
    else if (prop.writeOnly) out.push({ ...at, id: required ? "response-required-write-only-property-removed" : "response-optional-write-only-property-removed", what: "removed" });
    else out.push({ ...at, id: required ? "response-required-property-removed" : "response-optional-property-removed", what: `removed (it was ${required ? "required" : "optional"})` });
  }
  for (const [name, ref] of rev.properties) {
    if (base.properties.has(name)) continue;
    const prop = getRev(ref);
    const required = rev.required.has(name);
    const at = { path: [name], revision: ref.at };
    if (direction === "request") out.push({ ...at, id: required && !prop.readOnly ? (prop.default ? "new-required-request-property-with-default" : "new-required-request-property") : "new-optional-request-property", what: `added (${required ? "required" : "optional"}${prop.readOnly ? ", readOnly" : ""})` });
    else out.push({ ...at, id: `response-${required ? "required" : "optional"}${prop.writeOnly ? "-write-only" : ""}-property-added`, what: `added (${required ? "required" : "optional"})` });
  }
  for (const [name, bref] of base.properties) {
    const rref = rev.properties.get(name);
    if (!rref) continue;
    const child = recurse(bref, rref);
    const bp = child.base;
    const rp = child.rev;
    const at = { path: [name], base: bref.at, revision: rref.at };
    const wasRequired = base.required.has(name);
    const isRequired = rev.required.has(name);
    if (wasRequired !== isRequired) {
      if (direction === "request") {
        if (!(isRequired ? rp.readOnly : bp.readOnly)) out.push({ ...at, id: isRequired ? "request-property-became-required" : "request-property-became-optional", what: isRequired ? "became required" : "became optional" });
      } else if (!isRequired) out.push({ ...at, id: rp.writeOnly ? "response-write-only-property-became-optional" : "response-property-became-optional", what: "became optional" });
      else out.push({ ...at, id: "response-property-became-required", what: "became required" });
    }
    // oasdiff: "required" means required in both versions for requests, in the base for responses.
    const req = (direction === "request" ? wasRequired && isRequired : wasRequired) ? "required" : "optional";
    if (bp.readOnly !== rp.readOnly) out.push({ ...at, id: `${direction}-${req}-property-became-${rp.readOnly ? "read-only" : "not-read-only"}`, what: rp.readOnly ? "became readOnly" : "is no longer readOnly" });
    if (bp.writeOnly !== rp.writeOnly) out.push({ ...at, id: `${direction}-${req}-property-became-${rp.writeOnly ? "write-only" : "not-write-only"}`, what: rp.writeOnly ? "became writeOnly" : "is no longer writeOnly" });
    if (bp.deprecated !== rp.deprecated) out.push({ ...at, id: `${direction}-property-${rp.deprecated ? "deprecated" : "reactivated"}`, what: rp.deprecated ? "deprecated" : "no longer deprecated" });
    for (const c of child.changes) {
      out.push({
        ...c,
        path: [name, ...c.path],
        readOnly: c.readOnly ?? (bp.readOnly && rp.readOnly),
        writeOnly: c.writeOnly ?? (bp.writeOnly && rp.writeOnly),
      });
    }
  }
}
