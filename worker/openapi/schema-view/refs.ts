/** @module Local `$ref` lookup over a slice's `refs` map (JSON pointers as keys), cycle-safe, never remote. */

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Decodes one JSON pointer segment (`~1` → `/`, `~0` → `~`, then percent-decoding). RFC 6901 §4. */
export function decodeSegment(segment: string): string {
  const unescaped = segment.replace(/~1/g, "/").replace(/~0/g, "~");
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped;
  }
}

/** The last segment of a pointer, decoded: `#/components/schemas/Pet` → `Pet`. */
export function refName(ref: string): string {
  const hash = ref.indexOf("#");
  const pointer = hash >= 0 ? ref.slice(hash + 1) : ref;
  const parts = pointer.split("/");
  return decodeSegment(parts[parts.length - 1] ?? "");
}

/** The component name when `ref` points straight at `#/components/<kind>/<name>`, else undefined. */
export function componentName(ref: string): string | undefined {
  const m = /^#\/components\/[^/]+\/([^/]+)$/.exec(ref) ?? /^#\/definitions\/([^/]+)$/.exec(ref);
  return m ? decodeSegment(m[1]) : undefined;
}

/**
 * Looks a `$ref` up in `refs`. Exact keys first; otherwise walks down from the longest stored prefix, so
 * `#/components/schemas/Pet/properties/id` resolves when only `#/components/schemas/Pet` was stored.
 * Returns undefined for remote or missing targets (never fetches).
 */
export function lookupRef(ref: string, refs: Record<string, unknown>): unknown {
  if (Object.prototype.hasOwnProperty.call(refs, ref)) return refs[ref];
  if (!ref.startsWith("#/")) return undefined;
  const parts = ref.slice(2).split("/");
  for (let cut = parts.length - 1; cut > 0; cut--) {
    const key = "#/" + parts.slice(0, cut).join("/");
    if (!Object.prototype.hasOwnProperty.call(refs, key)) continue;
    let node: unknown = refs[key];
    for (const seg of parts.slice(cut)) {
      const name = decodeSegment(seg);
      if (Array.isArray(node)) node = node[Number(name)];
      else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, name)) node = node[name];
      else return undefined;
    }
    return node;
  }
  return undefined;
}

/** Result of following a chain of `$ref`s. */
export interface Dereferenced {
  /** The target with the referencing objects' sibling keywords laid over it (3.1 semantics). */
  value: unknown;
  /** The first `$ref` followed, if any (what a reader would call this node). */
  ref?: string;
  /** A `$ref` that could not be resolved locally. */
  unresolved?: string;
}

/**
 * Follows `$ref` chains (at most 32 hops, loops stop). Sibling keywords of a `$ref` (description, summary,
 * nullable, ...) override the target's, as OpenAPI 3.1 allows; 3.0 documents rely on this in practice.
 */
export function deref(value: unknown, refs: Record<string, unknown>): Dereferenced {
  let current = value;
  let first: string | undefined;
  let overlay: JsonObject | undefined;
  const seen = new Set<string>();
  for (let hop = 0; hop < 32 && isObject(current) && typeof current.$ref === "string"; hop++) {
    const ref = current.$ref;
    if (first === undefined) first = ref;
    const { $ref: _ignored, ...siblings } = current;
    if (Object.keys(siblings).length > 0) overlay = { ...siblings, ...overlay };
    if (seen.has(ref)) return { value: overlay ?? {}, ref: first, unresolved: ref };
    seen.add(ref);
    const target = lookupRef(ref, refs);
    if (target === undefined) return { value: overlay ?? {}, ref: first, unresolved: ref };
    current = target;
  }
  if (overlay && isObject(current)) current = { ...current, ...overlay };
  return { value: current, ref: first };
}

/** Shorthand: the dereferenced value if it is an object, else undefined. */
export function derefObject(value: unknown, refs: Record<string, unknown>): JsonObject | undefined {
  const { value: v } = deref(value, refs);
  return isObject(v) ? v : undefined;
}
