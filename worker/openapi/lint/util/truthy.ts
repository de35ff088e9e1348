/** @module Spectral's `truthy` and `pattern` functions' notion of a value, for rules that mirror them. */

/** JavaScript truthiness, as Spectral's `truthy` function tests it (`""`, `0`, `false`, `null` fail; `{}` passes). */
export const truthy = (value: unknown): boolean => Boolean(value);

/** JSON value printed as Spectral's `printValue` does (strings quoted, objects `Object{}`, arrays `Array[]`). */
export function printValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "Array[]";
  if (typeof value === "object" && value !== null) return "Object{}";
  return JSON.stringify(value);
}
