/**
 * @module A schema change relative to the schema pair it was found in. The same shared schema is compared once
 * per direction and its relative changes are re-emitted under every operation that reaches it.
 */

import type { PathSegment } from "../../model/pointer";

/** A change found inside a schema pair. */
export interface RelChange {
  /** `suffix`: the id is `<direction>-<body|property>-<suffix>` (or `request-parameter[-property]-<suffix>`); `id`: a full id. */
  suffix?: string;
  id?: string;
  /** Property path below the compared pair (`items` for array items, `prefixItems/0`, `oneOf/Pet`). */
  path: string[];
  base?: PathSegment[];
  revision?: PathSegment[];
  /** What changed, without the subject ("enum value \"a\" removed"). */
  what: string;
  /** readOnly / writeOnly of the innermost property on the path (guards: a readOnly property is not sent). */
  readOnly?: boolean;
  writeOnly?: boolean;
}

/** The compare direction: request schemas accept what clients send, response schemas describe what they get. */
export type Direction = "request" | "response";

/** JSON text of a value for messages, shortened. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A stable key of a JSON value (enum members are compared by it). */
export function valueKey(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return String(value);
  }
}
