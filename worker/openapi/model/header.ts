/** @module The version-wide {@link ReferenceHeader}: info, servers, tags, security schemes, counts. */

import { isObject } from "./pointer";
import { resolveObjectRef } from "./path-item";
import { MODEL_VERSION } from "./types";
import type { BuildIssue, ReferenceCounts, ReferenceHeader, SpecVersion, TagInfo } from "./types";

/** Builds the header of a normalised (3.x) document; problems with `info` and `tags` go to `issues`. */
export function buildHeader(document: Record<string, unknown>, sourceVersion: SpecVersion, counts: Omit<ReferenceCounts, "schemas" | "securitySchemes">, issues: BuildIssue[]): ReferenceHeader {
  const info = isObject(document.info) ? document.info : {};
  if (!isObject(document.info)) issues.push({ severity: "error", rule: "info-missing", message: "The definition has no info object", path: ["info"] });
  for (const field of ["title", "version"] as const) {
    if (typeof info[field] !== "string") {
      issues.push({ severity: "error", rule: `info-${field}`, message: `info.${field} should be a string`, path: ["info", field] });
    }
  }
  const components = isObject(document.components) ? document.components : {};
  const securitySchemes = securitySchemesOf(document, components.securitySchemes);
  const header: ReferenceHeader = {
    modelVersion: MODEL_VERSION,
    sourceVersion,
    openapi: String(document.openapi),
    info: { ...info, title: textOf(info.title), version: textOf(info.version) },
    servers: Array.isArray(document.servers) ? document.servers : [],
    tags: tagsOf(document.tags, issues),
    securitySchemes,
    counts: {
      ...counts,
      schemas: isObject(components.schemas) ? Object.keys(components.schemas).length : 0,
      securitySchemes: Object.keys(securitySchemes).length,
    },
  };
  if (Array.isArray(document.security)) header.security = document.security as Record<string, string[]>[];
  if (isObject(document.externalDocs)) header.externalDocs = document.externalDocs as ReferenceHeader["externalDocs"];
  return header;
}

function securitySchemesOf(document: Record<string, unknown>, schemes: unknown): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (!isObject(schemes)) return out;
  for (const [name, value] of Object.entries(schemes)) {
    const scheme = resolveObjectRef(document, value);
    if (scheme) out[name] = scheme;
  }
  return out;
}

function tagsOf(tags: unknown, issues: BuildIssue[]): TagInfo[] {
  if (!Array.isArray(tags)) return [];
  const out: TagInfo[] = [];
  tags.forEach((tag, i) => {
    if (!isObject(tag) || typeof tag.name !== "string") {
      issues.push({ severity: "warning", rule: "invalid-tag", message: "A tag needs a string name; skipped", path: ["tags", i] });
      return;
    }
    const info: TagInfo = { name: tag.name };
    for (const field of ["summary", "description", "parent", "kind"] as const) {
      if (typeof tag[field] === "string") info[field] = tag[field] as string;
    }
    if (isObject(tag.externalDocs)) info.externalDocs = tag.externalDocs as TagInfo["externalDocs"];
    out.push(info);
  });
  return out;
}

/**
 * `info.title` / `info.version` as text: strings as written, numbers and booleans as YAML wrote them (`version:
 * 1.0` parses as 1); objects and arrays are not a title or a version, so they read as missing (the publisher then
 * uses its fallback label, publish/names.ts) rather than as "[object Object]".
 */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
}
