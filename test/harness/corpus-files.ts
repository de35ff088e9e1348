/**
 * @module Reading ../shared/corpus from Node, for tests and the test-only CORPUS service binding: where it is,
 * which files a multi-file definition needs, and the operations MANIFEST.tsv leaves out of its count.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { parse as parseYaml } from "yaml";

/** Where the shared corpus lives (beside the project, as CI lays it out). */
export const CORPUS_DIR = resolve(import.meta.dirname, "../../../shared/corpus");

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

function readData(file: string): unknown {
  try {
    return parseYaml(readFileSync(file, "utf8"), { maxAliasCount: -1, uniqueKeys: false, strict: false });
  } catch {
    return undefined;
  }
}

function collectRefs(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.add(value);
      else collectRefs(value, out);
    }
  }
}

/** The root plus every file reachable through relative file `$ref`s (absolute paths); missing targets are skipped. */
export function referencedFiles(rootAbs: string): string[] {
  const seen = new Set<string>();
  const queue = [rootAbs];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file) || !statSync(file).isFile()) continue;
    seen.add(file);
    const refs = new Set<string>();
    collectRefs(readData(file), refs);
    for (const ref of refs) {
      const target = ref.split("#")[0];
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      queue.push(resolve(dirname(file), decodeURI(target)));
    }
  }
  return [...seen];
}

/** The deepest folder holding every one of `files` (absolute paths). */
export function commonDir(files: string[]): string {
  let base = dirname(files[0]);
  while (!files.every((f) => f.startsWith(base + sep)) && base !== dirname(base)) base = dirname(base);
  return base;
}

/**
 * Operations behind local path-item `$ref`s (`/a: {$ref: "#/components/pathItems/A"}`). MANIFEST.tsv's
 * operation_count counts only methods written directly under `paths`. A path item given by `$ref` is a path
 * item all the same (OpenAPI 3.x §4.8.9), so Portico lists its operations; the corpus tests expect
 * `operation_count` plus these.
 */
export function operationsBehindLocalPathItemRefs(file: string): number {
  const data = readData(file) as { paths?: Record<string, { $ref?: unknown }> } | undefined;
  let count = 0;
  for (const item of Object.values(data?.paths ?? {})) {
    if (typeof item?.$ref !== "string" || !item.$ref.startsWith("#/")) continue;
    let target: unknown = data;
    for (const seg of item.$ref.slice(2).split("/")) {
      target = (target as Record<string, unknown> | undefined)?.[decodeURIComponent(seg).replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    if (target && typeof target === "object") count += METHODS.filter((m) => m in target).length;
  }
  return count;
}
