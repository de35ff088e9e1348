/** @module Other bodies (text, XML, binary): the example as text. */
import type { SampleBody } from "../types";

/** Strings verbatim; anything else as JSON (a definition with an XML schema and no string example gets JSON text). */
export function encodeText(mimeType: string, value: unknown): SampleBody {
  return { mimeType, text: typeof value === "string" ? value : JSON.stringify(value ?? "") };
}
