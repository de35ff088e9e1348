/**
 * @module The lint findings a publish adds about its version label (they come from choosing the label, not from
 * the document's content, so no ruleset rule reports them): `version-fallback` (no usable `info.version`, the upload
 * date is used) and `version-label` (`info.version` had to be changed to be one URL path segment).
 */
import type { UploadIssue } from "./types";

/** Where a finding about `info.version` points: the parsed root file, its path and a locator of its nodes. */
export interface LabelSource {
  path?: string;
  parsed: { data: unknown; locate(path: readonly (string | number)[]): { line: number; column: number } | undefined };
}

function infoOf(source: LabelSource): { hasInfo: boolean; hasVersion: boolean; written: unknown } {
  const data = source.parsed.data as { info?: unknown };
  const info = data !== null && typeof data === "object" ? data.info : undefined;
  const hasInfo = info !== null && typeof info === "object" && !Array.isArray(info);
  const hasVersion = hasInfo && Object.prototype.hasOwnProperty.call(info, "version");
  return { hasInfo, hasVersion, written: hasVersion ? (info as { version: unknown }).version : undefined };
}

function at(source: LabelSource, path: (string | number)[], severity: UploadIssue["severity"], rule: string, message: string): UploadIssue {
  const where = source.parsed.locate(path);
  return {
    severity, rule, message,
    line: where?.line ?? null,
    column: where?.column ?? null,
    path,
    ...(source.path !== undefined ? { file: source.path } : {}),
  };
}

/**
 * The warning of a definition published under the fallback label: at `info.version` (or `info`, or the top, when
 * missing), in the root file.
 */
export function versionFallbackIssue(source: LabelSource, label: string): UploadIssue {
  const { hasInfo, hasVersion, written } = infoOf(source);
  const path = hasVersion ? ["info", "version"] : hasInfo ? ["info"] : [];
  const what = !hasVersion || written === null ? "info.version is missing" : written === "" ? "info.version is empty" : typeof written === "string" ? "info.version is white space" : "info.version is not text";
  return at(source, path, "warning", "version-fallback", `${what}: published under the upload date "${label}" (set info.version, or ?version=, to choose the label)`);
}

/**
 * The note of a definition published under a label derived from its `info.version` ({@link labelFromVersion}):
 * informational, since the document is valid (OpenAPI's `info.version` is any string) and its version is still
 * shown as written; the label only names its URL.
 */
export function versionLabelIssue(source: LabelSource, version: string, label: string): UploadIssue {
  const found = [version.includes("/") && '"/"', version.includes("\\") && '"\\"'].filter(Boolean).join(" and ");
  const message = `info.version "${version}" contains ${found}, which a label (one URL path segment) cannot: published under the label "${label}" (set ?version= to choose another)`;
  return at(source, ["info", "version"], "info", "version-label", message);
}
