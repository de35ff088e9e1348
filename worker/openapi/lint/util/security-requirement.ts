/** @module Shared check of oas2- and oas3-operation-security-defined: requirements name defined schemes and scopes. */

import type { DocumentContext } from "../rule";
import { isObject } from "./is-object";

/**
 * Checks one security requirement (`{scheme: [scopes]}`) against the declared schemes, as Spectral's
 * `oasSecurityDefined` does: silently skips requirements that are not objects of string arrays.
 */
export function checkSecurityRequirement(requirement: unknown, ctx: DocumentContext, oas: 2 | 3): void {
  if (!isObject(requirement)) return;
  const names = Object.keys(requirement);
  if (names.length === 0) return;
  if (!names.every((n) => Array.isArray(requirement[n]) && (requirement[n] as unknown[]).every((s) => typeof s === "string"))) return;
  const root = ctx.root;
  const components = ctx.resolve(root.components);
  const schemes = ctx.resolve(oas === 2 ? root.securityDefinitions : isObject(components) ? components.securitySchemes : undefined);
  const object = ctx.path.length === 2 ? "API" : "Operation";
  const location = oas === 2 ? "securityDefinitions" : "components.securitySchemes";
  for (const name of names) {
    if (!isObject(schemes) || !(name in schemes)) {
      ctx.report(`${object} "security" values must match a scheme defined in the "${location}" object.`, [...ctx.path, name]);
      continue;
    }
    const scheme = ctx.resolve(schemes[name]);
    (requirement[name] as string[]).forEach((scope, i) => {
      if (!scopeDefined(oas, scope, scheme)) ctx.report(`"${scope}" must be listed among scopes.`, [...ctx.path, name, i]);
    });
  }
}

function scopeDefined(oas: 2 | 3, scope: string, scheme: unknown): boolean {
  if (!isObject(scheme)) return false;
  if (oas === 2) return isObject(scheme.scopes) && scope in scheme.scopes;
  if (!isObject(scheme.flows)) return false;
  return Object.values(scheme.flows).some((flow) => isObject(flow) && isObject(flow.scopes) && scope in flow.scopes);
}
