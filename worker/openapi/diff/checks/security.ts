/**
 * @module Check family: security requirements, top level and per operation. A requirement is one alternative
 * (a set of schemes); removing an alternative or adding a scope to one narrows who may call (ERR), adding an
 * alternative or removing a scope widens it (INFO). Operation-level `security` lists are compared as written where
 * either side declares one (oasdiff's reading, inheritance not applied); the top level once.
 */

import { isObject } from "../../model/pointer";
import type { PathSegment } from "../../model/pointer";
import type { DiffCheck } from "../check";
import type { DiffContext, Where } from "../context";
import type { ChangeOperation } from "../types";

function requirements(value: unknown): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  if (!Array.isArray(value)) return out;
  for (const req of value) {
    if (!isObject(req)) continue;
    const schemes = new Map<string, string[]>();
    for (const [name, scopes] of Object.entries(req)) schemes.set(name, Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : []);
    out.set([...schemes.keys()].sort().join(" + ") || "(anonymous)", schemes);
  }
  return out;
}

function compare(ctx: DiffContext, bv: unknown, rv: unknown, prefix: "api" | "api-global", baseAt: PathSegment[], revAt: PathSegment[], operation?: ChangeOperation): void {
  const b = requirements(bv);
  const r = requirements(rv);
  const where: Where = { base: baseAt, revision: revAt, ...(operation ? { operation } : {}) };
  const scope = prefix === "api-global" ? "top-level security" : "security";
  for (const key of b.keys()) if (!r.has(key)) ctx.emit(`${prefix}-security-removed`, `${scope} requirement ${key} removed`, where);
  for (const key of r.keys()) if (!b.has(key)) ctx.emit(`${prefix}-security-added`, `${scope} requirement ${key} added`, where);
  for (const [key, schemes] of b) {
    const other = r.get(key);
    if (!other) continue;
    for (const [scheme, scopes] of schemes) {
      const next = other.get(scheme) ?? [];
      for (const s of next) if (!scopes.includes(s)) ctx.emit(`${prefix}-security-scope-added`, `${scope} ${scheme}: scope ${s} added`, where);
      for (const s of scopes) if (!next.includes(s)) ctx.emit(`${prefix}-security-scope-removed`, `${scope} ${scheme}: scope ${s} removed`, where);
    }
  }
}

export const securityCheck: DiffCheck = {
  name: "security requirements",
  run(ctx) {
    compare(ctx, ctx.base.document.security, ctx.revision.document.security, "api-global", ["security"], ["security"]);
    for (const { base, revision, operation } of ctx.pairs) {
      if (base.operation.security === undefined && revision.operation.security === undefined) continue;
      // The operation's own lists, as oasdiff compares them: an override appearing over a top-level requirement is
      // api-security-added (INFO), not the inherited requirement removed.
      compare(ctx, base.operation.security, revision.operation.security, "api", [...base.at, "security"], [...revision.at, "security"], operation);
    }
  },
};
