/** @module JSON pointers as `$ref` writes them (`#/components/schemas/Pet`), to and from path segments. */

import type { JsonPath } from "../types";

/** Segments of a local `$ref` (`#/a/b~1c` → `["a", "b/c"]`), percent-decoded as URI fragments are; undefined if not local. */
export function localRefPath(ref: string): string[] | undefined {
  if (ref === "#") return [];
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((s) => unescapeSegment(safeDecode(s)));
}

/** `["a", "b/c"]` → `#/a/b~1c` (no percent-encoding: used as a map key, not as a URI). */
export function toPointer(path: readonly (string | number)[]): string {
  let out = "#";
  for (const s of path) out += "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1");
  return out;
}

/** The value at `path` under `root`, or undefined. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root;
  for (const s of path) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, s)) return undefined;
    node = (node as Record<string, unknown>)[s as string];
  }
  return node;
}

/** The longest prefix of `path` that exists under `root` (Spectral reports a missing field at its parent). */
export function closestPath(root: unknown, path: readonly (string | number)[]): JsonPath {
  const out: JsonPath = [];
  let node = root;
  for (const s of path) {
    if (node === null || typeof node !== "object") break;
    const key = Array.isArray(node) ? Number(s) : s;
    if (!Object.prototype.hasOwnProperty.call(node, key)) break;
    out.push(Array.isArray(node) ? (key as number) : s);
    node = (node as Record<string, unknown>)[key as string];
  }
  return out;
}

function unescapeSegment(s: string): string {
  return s.indexOf("~") === -1 ? s : s.replace(/~1/g, "/").replace(/~0/g, "~");
}

function safeDecode(s: string): string {
  if (s.indexOf("%") === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
