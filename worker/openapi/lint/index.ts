/**
 * @module Portico's OpenAPI lint engine: Spectral's `spectral:oas` rules (same ids, same default severities),
 * platform-free, for the upload route (one-off) and the editor (an incremental session in a Web Worker).
 */

export { lintData, lintDocument } from "./lint-document";
export type { Locate } from "./locate-problems";
export { createLintSession, type LintSession, type TextChange, type UpdateInfo } from "./session";
export type { JsonPath, LintOptions, LintProblem, LintResult, OasVersion, RuleSetting, Severity } from "./types";
export { RULES, RULES_BY_ID, type RuleId } from "./registry";
export { ruleDocsUrl } from "./rule";
