/** @module Helpers to declare rules with their literal ids kept (the registry's `RuleId` type comes from them). */

import type { DocumentRule, NodeRule } from "./rule";
import type { OasVersion } from "./types";

export const ALL_VERSIONS: readonly OasVersion[] = ["2.0", "3.0", "3.1", "3.2"];
export const OAS2: readonly OasVersion[] = ["2.0"];
export const OAS3: readonly OasVersion[] = ["3.0", "3.1", "3.2"];
export const OAS3_1_UP: readonly OasVersion[] = ["3.1", "3.2"];

export function defineNodeRule<const Id extends string>(rule: NodeRule & { id: Id }): NodeRule & { id: Id } {
  return rule;
}

export function defineDocumentRule<const Id extends string>(rule: DocumentRule & { id: Id }): DocumentRule & { id: Id } {
  return rule;
}
