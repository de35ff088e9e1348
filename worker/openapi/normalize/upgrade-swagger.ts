/**
 * @module Swagger 2.0 → OpenAPI 3.0 with the maintained `@scalar/openapi-upgrader` (servers from
 * host + basePath + schemes, `definitions` → `components/schemas`, body/formData → `requestBody`,
 * `securityDefinitions` → `components/securitySchemes`), guarded against inputs it crashes on and corrected
 * where its output is wrong (see swagger-guards.ts and swagger-fixes.ts).
 */

import { upgrade } from "@scalar/openapi-upgrader";
import type { BuildIssue } from "../model/types";
import { guardSwagger, restorePathItems } from "./swagger-guards";
import { moveRequestBodyRefs } from "./swagger-fixes";

export type UpgradeOutcome = { ok: true; document: Record<string, unknown> } | { ok: false; message: string };

/** Upgrades `data` (mutated: the caller must own it) to OpenAPI 3.0.x; problems found on the way go to `issues`. */
export function upgradeSwagger(data: Record<string, unknown>, issues: BuildIssue[]): UpgradeOutcome {
  const stash = guardSwagger(data, issues);
  let document: Record<string, unknown>;
  try {
    document = upgrade(data, "3.0") as unknown as Record<string, unknown>;
  } catch (e) {
    return { ok: false, message: `The Swagger 2.0 definition could not be upgraded to OpenAPI 3.0: ${e instanceof Error ? e.message : String(e)}` };
  }
  restorePathItems(document, stash);
  moveRequestBodyRefs(document);
  return { ok: true, document };
}
