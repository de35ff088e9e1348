/** @module POSIX-style paths inside an uploaded archive (no file system: plain string arithmetic). */

/** Folder part of a path: "spec/a.yaml" → "spec", "a.yaml" → "". */
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i === -1 ? "" : path.slice(0, i);
}

/**
 * Resolves `relative` against folder `base` and normalises "." and "..". A leading "/" means the archive
 * root. Returns undefined when the result would leave the archive.
 */
export function resolvePath(base: string, relative: string): string | undefined {
  const parts = relative.startsWith("/") ? [] : base.split("/").filter(Boolean);
  for (const part of relative.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/** "models/pet-store.yaml" → "pet-store". */
export function baseName(path: string): string {
  const file = path.slice(path.lastIndexOf("/") + 1);
  const dot = file.lastIndexOf(".");
  return dot > 0 ? file.slice(0, dot) : file;
}

/** True for files whose content is a JSON/YAML document (others, like Markdown, are referenced as text). */
export function isStructuredFile(path: string): boolean {
  return /\.(json|ya?ml)$/i.test(path);
}
