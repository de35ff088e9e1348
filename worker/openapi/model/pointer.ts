/**
 * @module JSON Pointer and `$ref` helpers (RFC 6901 with `~0`/`~1`, fragments URL-decoded per RFC 3986).
 * @see https://spec.openapis.org/oas/v3.1.0#reference-object
 */

export type PathSegment = string | number;

/** What a `$ref` string points at. */
export type ParsedRef =
  | { kind: "local"; segments: string[] }
  | { kind: "relative"; file: string; segments: string[] }
  | { kind: "remote"; url: string }
  | { kind: "invalid"; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Splits a `$ref` into local pointer / relative file + pointer / remote URL. Never throws. */
export function parseRef(ref: string): ParsedRef {
  const hash = ref.indexOf("#");
  const file = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  if (SCHEME.test(file)) return { kind: "remote", url: ref };
  const segments = parseFragment(fragment);
  if (!segments) return { kind: "invalid", reason: `"${ref}" has a fragment that is not a JSON pointer` };
  if (file === "") return { kind: "local", segments };
  return { kind: "relative", file: safeDecode(file), segments };
}

/** `/a/b~1c` → ["a", "b/c"]; "" → []; anything not starting with "/" (plain-name anchors) → undefined. */
export function parseFragment(fragment: string): string[] | undefined {
  const decoded = safeDecode(fragment);
  if (decoded === "") return [];
  if (!decoded.startsWith("/")) return undefined;
  return decoded.slice(1).split("/").map(unescapeSegment);
}

export function unescapeSegment(segment: string): string {
  return segment.includes("~") ? segment.replace(/~1/g, "/").replace(/~0/g, "~") : segment;
}

export function escapeSegment(segment: PathSegment): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** ["components", "schemas", "Pet"] → "#/components/schemas/Pet". */
export function toRef(segments: readonly PathSegment[]): string {
  return "#" + segments.map((s) => "/" + escapeSegment(s)).join("");
}

function safeDecode(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Own property `key` of a container (array index or object key), never the prototype chain. */
export function childOf(node: unknown, key: PathSegment): unknown {
  if (Array.isArray(node)) {
    const i = typeof key === "number" ? key : /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
    return i >= 0 && i < node.length ? node[i] : undefined;
  }
  if (isObject(node) && Object.hasOwn(node, key)) return node[key];
  return undefined;
}

/**
 * Resolves segments from `root`. When an intermediate node is itself a local `$ref`, resolution continues at its
 * target (bundlers emit such pointers), within `maxHops` jumps. `found` is false for a missing target.
 */
export function resolvePointer(root: unknown, segments: readonly string[], maxHops = 32): { found: boolean; value: unknown } {
  let node = root;
  let hops = 0;
  for (let i = 0; i < segments.length; i++) {
    let next = childOf(node, segments[i]);
    while (next === undefined && isObject(node) && typeof node.$ref === "string" && hops++ < maxHops) {
      const inner = parseRef(node.$ref);
      if (inner.kind !== "local") return { found: false, value: undefined };
      const target = resolvePointer(root, inner.segments, maxHops - hops);
      if (!target.found) return target;
      node = target.value;
      next = childOf(node, segments[i]);
    }
    if (next === undefined) return { found: false, value: undefined };
    node = next;
  }
  return { found: true, value: node };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
