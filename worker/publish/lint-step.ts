/**
 * @module The `lint` block of an upload: the problems the build itself found (structure, unresolved and remote
 * `$ref`s), each with its line. The lint engine's rules join here when they land.
 */
import type { BuildIssue } from "../openapi/model/types";
import type { UploadIssue, UploadLint } from "./types";

/** Most issues an upload answer carries; counts always cover all of them. */
export const MAX_ANSWER_ISSUES = 1000;

function toUploadIssue(issue: BuildIssue): UploadIssue {
  return {
    severity: issue.severity,
    rule: issue.rule,
    message: issue.message,
    line: issue.line ?? null,
    column: issue.column ?? null,
    path: issue.path,
    ...(issue.file ? { file: issue.file } : {}),
  };
}

/** Summarises build issues (and, later, lint problems) into the upload answer's `lint` block. */
export function lintForUpload(_body: Uint8Array, outcome: { issues: BuildIssue[] }): UploadLint {
  const all = outcome.issues.map(toUploadIssue);
  const errors = all.filter((i) => i.severity === "error").length;
  const warnings = all.filter((i) => i.severity === "warning").length;
  const issues = all.slice(0, MAX_ANSWER_ISSUES);
  return { errors, warnings, issues, ...(all.length > issues.length ? { truncated: true } : {}) };
}
