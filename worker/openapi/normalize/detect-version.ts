/**
 * @module Which specification a document follows, from its `swagger` / `openapi` field.
 * @see https://spec.openapis.org/oas/v3.1.0#fixed-fields (openapi), https://swagger.io/specification/v2/ (swagger)
 */

import type { BuildIssue, SpecVersion } from "../model/types";

export type VersionDetection =
  | { ok: true; version: SpecVersion; declared: string; issues: BuildIssue[] }
  | { ok: false; code: "not-openapi" | "unsupported-version"; message: string; path: string[] };

const SUPPORTED = "Portico reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2";

/**
 * Detects Swagger 2.0 / OpenAPI 3.0 / 3.1 / 3.2. An unquoted YAML number (`openapi: 3.0` parses as 3) is
 * accepted with a warning. Anything else is refused with a reason.
 */
export function detectVersion(data: Record<string, unknown>): VersionDetection {
  const issues: BuildIssue[] = [];
  const field = "openapi" in data ? "openapi" : "swagger" in data ? "swagger" : undefined;
  if (!field) {
    return { ok: false, code: "not-openapi", message: "The document has neither an `openapi` nor a `swagger` field, so it is not an OpenAPI definition", path: [] };
  }
  if ("openapi" in data && "swagger" in data) {
    issues.push({ severity: "warning", rule: "ambiguous-version", message: "Both `openapi` and `swagger` are set; `openapi` is used", path: ["swagger"] });
  }
  const raw = data[field];
  if (typeof raw === "number") {
    issues.push({ severity: "warning", rule: "version-not-string", message: `\`${field}\` should be a string such as "${field === "swagger" ? "2.0" : "3.1.0"}"`, path: [field] });
  }
  const declared = typeof raw === "number" ? (Number.isInteger(raw) ? raw.toFixed(1) : String(raw)) : typeof raw === "string" ? raw.trim() : "";
  if (field === "swagger") {
    if (/^2\.0(\.\d+)?$/.test(declared)) return { ok: true, version: "2.0", declared, issues };
    return { ok: false, code: "unsupported-version", message: `Swagger ${JSON.stringify(raw)} is not supported; ${SUPPORTED}`, path: [field] };
  }
  const match = /^3\.([0-9]+)(\.[0-9]+)?(-[0-9A-Za-z.-]+)?$/.exec(declared);
  const minor = match ? Number(match[1]) : -1;
  if (minor >= 0 && minor <= 2) return { ok: true, version: `3.${minor}` as SpecVersion, declared, issues };
  return { ok: false, code: "unsupported-version", message: `OpenAPI ${JSON.stringify(raw)} is not supported; ${SUPPORTED}`, path: [field] };
}
