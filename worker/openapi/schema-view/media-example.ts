/** @module Examples of a media type object: the definition's own first, else one generated from the schema view. */
import { generateExample } from "./example";
import { deref, isObject } from "./refs";
import type { SchemaView } from "./types";

/** One example as shown to readers and fed to code samples. */
export interface MediaExample {
  /** Key in `examples`, `example` for the singular field, `generated` when made from the schema. */
  name: string;
  summary?: string;
  description?: string;
  value?: unknown;
  /** Example objects may point elsewhere instead of carrying a value (never fetched). */
  externalValue?: string;
  generated: boolean;
  /** A generated example cut by its budget or missing a bound it could not meet (`minLength: 1e9`): "example truncated". */
  truncated?: boolean;
}

/**
 * The examples of a media type (or parameter, or header) object: `examples` entries (each an Example
 * object, maybe a `$ref`), then `example`; when there are none, one generated from `view`.
 * 3.2 `dataValue`/`serializedValue` are read as values. @see OpenAPI 3.2 §4.8.19 Example Object
 */
export function mediaTypeExample(media: Record<string, unknown> | undefined, view: SchemaView | undefined,
  refs: Record<string, unknown>): MediaExample[] {
  const out: MediaExample[] = [];
  if (media && isObject(media.examples)) {
    for (const [name, raw] of Object.entries(media.examples)) {
      const ex = deref(raw, refs).value;
      if (!isObject(ex)) continue;
      const item: MediaExample = { name, generated: false };
      if (typeof ex.summary === "string") item.summary = ex.summary;
      if (typeof ex.description === "string") item.description = ex.description;
      if ("dataValue" in ex) item.value = ex.dataValue;
      else if ("value" in ex) item.value = ex.value;
      else if ("serializedValue" in ex) item.value = ex.serializedValue;
      if (typeof ex.externalValue === "string") item.externalValue = ex.externalValue;
      out.push(item);
    }
  }
  if (media && "example" in media && media.example !== undefined) out.push({ name: "example", value: media.example, generated: false });
  if (out.length === 0 && view) {
    const { value, truncated } = generateExample(view);
    if (value !== undefined) out.push(truncated ? { name: "generated", value, generated: true, truncated } : { name: "generated", value, generated: true });
  }
  return out;
}
