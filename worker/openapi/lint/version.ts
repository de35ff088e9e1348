/**
 * @module Which ruleset applies: Spectral's format detection (`oas2`, `oas3_0`, `oas3_1`, `oas3_2`), plus one
 * clear problem, instead of a crash or a flood, for documents that are not OpenAPI or are a version we do not know.
 */

import type { JsonPath, OasVersion } from "./types";

const SUPPORTED = "Portico lints Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2";

export type VersionOutcome =
  | { ok: true; version: OasVersion }
  | { ok: false; rule: "unsupported-version" | "not-openapi"; message: string; path: JsonPath };

/** Detects the version from `swagger` / `openapi` (a YAML number such as `openapi: 3.1` is read as text). */
export function detectOasVersion(data: Record<string, unknown>): VersionOutcome {
  if ("openapi" in data) {
    const declared = String(data.openapi);
    const minor = /^3\.(\d+)(?:[.-]|$)/.exec(declared);
    if (minor && Number(minor[1]) <= 2) return { ok: true, version: `3.${Number(minor[1])}` as OasVersion };
    return {
      ok: false,
      rule: "unsupported-version",
      message: `OpenAPI ${declared} is not supported: ${SUPPORTED}, so the document was not linted.`,
      path: ["openapi"],
    };
  }
  if ("swagger" in data) {
    const declared = String(data.swagger);
    if (Number.parseInt(declared, 10) === 2) return { ok: true, version: "2.0" };
    return { ok: false, rule: "unsupported-version", message: `Swagger ${declared} is not supported: ${SUPPORTED}, so the document was not linted.`, path: ["swagger"] };
  }
  return {
    ok: false,
    rule: "not-openapi",
    message: `The document has neither an "openapi" nor a "swagger" field, so it is not an OpenAPI definition: ${SUPPORTED}.`,
    path: [],
  };
}
