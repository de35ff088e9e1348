/**
 * @module The OpenAPI Format Registry's numeric and byte formats, checked in examples as ajv-formats (Spectral's
 * format library, MIT) checks them, with the bounds the registry's names mean:
 * - `int32`: an integer in [-2^31, 2^31-1]; `int64`: an integer in [-2^63, 2^63] (2^63-1 is not a double: it
 *   rounds to 2^63, so the upper bound admits it); ajv-formats checks only integrality for int64.
 * - `float`: a number no larger in magnitude than the largest single-precision float (3.4028234663852886e38);
 *   `double`: a finite number (YAML's `.inf` is not one). ajv-formats accepts any number for both.
 * - `byte`: base64 (RFC 4648 section 4, padded), ajv-formats' expression.
 * Numeric formats cannot go through @cfworker/json-schema's format table (it calls formats on strings only),
 * so a schema with one gets an `allOf` part `{ if: {type: number}, then: {<bounds>} }` marked with
 * {@link FORMAT_MARK}; cfworker-errors.ts turns that part's failures back into ajv's `must match format "int32"`.
 * @see https://spec.openapis.org/registry/format/, https://github.com/ajv-validator/ajv-formats (src/formats.ts)
 */

import { format as cfworkerFormats } from "@cfworker/json-schema";

/** Marks the schema parts standing for a numeric format; its value is the format's name. */
export const FORMAT_MARK = "x-portico-format";

const INT32 = { type: "integer", minimum: -2147483648, maximum: 2147483647 };
const INT64 = { type: "integer", minimum: -(2 ** 63), maximum: 2 ** 63 };
const FLOAT_MAX = 3.4028234663852886e38;

const NUMERIC: Record<string, Record<string, unknown>> = {
  int32: INT32,
  int64: INT64,
  float: { minimum: -FLOAT_MAX, maximum: FLOAT_MAX },
  double: { minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE },
};

/** The `allOf` part that checks numeric `format` on numbers (other types pass); undefined for other formats. */
export function numericFormatPart(format: unknown): Record<string, unknown> | undefined {
  if (typeof format !== "string" || !Object.prototype.hasOwnProperty.call(NUMERIC, format)) return undefined;
  return { [FORMAT_MARK]: format, if: { type: "number" }, then: { [FORMAT_MARK]: format, ...NUMERIC[format] } };
}

// ajv-formats' `byte`: linear (no nested quantifiers), so safe on any input length.
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const table = cfworkerFormats as Record<string, (value: string) => boolean>;
table.byte ??= (value) => BYTE.test(value);
