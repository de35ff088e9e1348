/** @module `application/x-www-form-urlencoded` bodies: one field per top-level property. */
import type { SampleBody } from "../types";
import { fieldValue } from "./field-value";

/** Fields from an object example; nested values are JSON-encoded (the default for form `content`). */
export function encodeForm(mimeType: string, value: unknown): SampleBody {
  const obj = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { mimeType, params: Object.entries(obj).map(([name, v]) => ({ name, value: fieldValue(v) })) };
}
