/** @module JSON Pointers (RFC 6901) as the editor's address of a node: problems, form fields and source slots share them. */

/** A path segment: an object key or an array index. */
export type Segment = string | number;

/** Encodes segments as a JSON Pointer (`[]` → `""`, `["paths", "/a"]` → `"/paths/~1a"`). */
export function toPointer(segments: readonly Segment[]): string {
  let out = "";
  for (const s of segments) out += "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1");
  return out;
}

/** Decodes a JSON Pointer (a leading `#` is accepted) into string segments. */
export function fromPointer(pointer: string): string[] {
  const p = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (p === "") return [];
  return p
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** True when `pointer` is `ancestor` or lies under it (`/a/b` is within `/a`, `/ab` is not). */
export function isWithin(pointer: string, ancestor: string): boolean {
  return ancestor === "" || pointer === ancestor || pointer.startsWith(ancestor + "/");
}

/** Normalises what a lint engine may report as a path (segments, pointer, `#/...` fragment) into a pointer. */
export function normalizePath(path: unknown): string {
  if (Array.isArray(path)) return toPointer(path as Segment[]);
  if (typeof path === "string") return path.startsWith("#") ? path.slice(1) : path;
  return "";
}

/** The parent of a pointer (`"/a/b"` → `"/a"`, `""` → `""`). */
export function parentPointer(pointer: string): string {
  const i = pointer.lastIndexOf("/");
  return i <= 0 ? "" : pointer.slice(0, i);
}
