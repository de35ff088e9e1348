/** @module `multipart/form-data` bodies: binary properties become file parts. */
import type { SchemaView } from "../../schema-view/types";
import type { SampleBody } from "../types";
import { fieldValue } from "./field-value";

function isBinary(view: SchemaView | undefined): boolean {
  if (!view) return false;
  const item = view.items ?? view;
  return item.format === "binary" || item.format === "base64" || item.contentMediaType === "application/octet-stream"
    || (item.contentMediaType !== undefined && !item.contentMediaType.startsWith("text/") && !item.contentMediaType.includes("json"));
}

/** Parts from an object example; properties the view marks binary (2.0 `file`, 3.0 `format: binary`, 3.1 `contentMediaType`) are files. */
export function encodeMultipart(mimeType: string, value: unknown, view: SchemaView | undefined): SampleBody {
  const obj = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const params = Object.entries(obj).map(([name, v]) => {
    const prop = view?.properties?.find((p) => p.name === name)?.schema;
    return isBinary(prop) ? { name, fileName: `${name}.bin` } : { name, value: fieldValue(v) };
  });
  return { mimeType, params };
}
