/** @module Picks the body encoder for a media type. */
import { isJsonMediaType } from "../../schema-view/operation";
import type { SchemaView } from "../../schema-view/types";
import type { SampleBody } from "../types";
import { encodeForm } from "./form";
import { encodeJson } from "./json";
import { encodeMultipart } from "./multipart";
import { encodeText } from "./text";

/** Encodes an example value as a HAR body for `mimeType` (parameters after `;` dropped). */
export function encodeBody(mimeType: string, value: unknown, view?: SchemaView): SampleBody {
  const base = mimeType.split(";")[0].trim().toLowerCase();
  if (base === "application/x-www-form-urlencoded") return encodeForm(base, value);
  if (base === "multipart/form-data" || base === "multipart/mixed") return encodeMultipart(base, value, view);
  if (isJsonMediaType(base) && base !== "*/*") return encodeJson(mimeType, value);
  if (base === "*/*") return encodeJson("application/json", value);
  return encodeText(mimeType, value);
}
