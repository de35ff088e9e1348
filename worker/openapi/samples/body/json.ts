/** @module JSON request bodies (`application/json`, `*+json`). */
import type { SampleBody } from "../types";

/** Serialises `value` compactly; the snippet library pretty-prints where its target does. */
export function encodeJson(mimeType: string, value: unknown): SampleBody {
  return { mimeType, text: JSON.stringify(value ?? null) };
}
