/** @module Type guards for parsed JSON/YAML values. */

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object carrying a string `$ref`. */
export function isRef(value: unknown): value is { $ref: string } & Record<string, unknown> {
  return isObject(value) && typeof value.$ref === "string";
}

export const hasOwn = (o: object, k: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, k);
