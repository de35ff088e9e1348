/**
 * @module How the walker derives a child's {@link WalkFlag}s from its parent's: key flags ("strictly below a
 * key named content") and position flags (prefixes of the logical path such as `$.paths[*][*]`).
 */

import { WalkFlag } from "../rule";

/** Internal position facts, above the public flags: the first segments of the logical path. */
const UNDER_PATHS = 1 << 16;
const UNDER_COMPONENTS = 1 << 17;
const UNDER_COMPONENT_SCHEMAS = 1 << 18;

const KEY_FLAGS: Record<string, number> = {
  content: WalkFlag.Content,
  headers: WalkFlag.Headers,
  parameters: WalkFlag.Parameters,
  responses: WalkFlag.Responses,
  definitions: WalkFlag.Definitions,
};

/** Whether a child's flags depend on its parent's key being `key` (see {@link childFlags}). */
export function keyGivesFlags(key: string): boolean {
  return KEY_FLAGS[key] !== undefined;
}

/**
 * Flags of a child at `depth` (root = 0) reached through `key`, from its parent's flags and the parent's own
 * key (`undefined` for the root).
 */
export function childFlags(parentFlags: number, parentKey: string | number | undefined, key: string | number, depth: number): number {
  let f = parentFlags;
  if (typeof parentKey === "string") {
    const k = KEY_FLAGS[parentKey];
    if (k !== undefined) f |= k;
  }
  if (depth === 1) {
    if (key === "paths") f |= UNDER_PATHS;
    else if (key === "components") f |= UNDER_COMPONENTS;
    else if (key === "responses") f |= WalkFlag.MediaResponse;
  } else if (depth === 2) {
    if (f & UNDER_COMPONENTS) {
      if (key === "schemas") f |= UNDER_COMPONENT_SCHEMAS;
      else if (key === "requestBodies") f |= WalkFlag.MediaRequest;
      else if (key === "responses") f |= WalkFlag.MediaResponse;
    }
  } else if (depth === 3) {
    if (f & UNDER_COMPONENT_SCHEMAS) f |= WalkFlag.ComponentSchemas;
  } else if (depth === 4) {
    if (f & UNDER_PATHS) {
      f |= WalkFlag.PathsOperation;
      if (key === "requestBody") f |= WalkFlag.MediaRequest;
      else if (key === "responses") f |= WalkFlag.MediaResponse;
    }
  }
  return f;
}
