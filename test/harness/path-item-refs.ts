/**
 * @module Operations behind local path-item `$ref`s (`/a: {$ref: "#/components/pathItems/A"}`).
 *
 * MANIFEST.tsv's operation_count counts only methods written directly under `paths`. A path item given by
 * `$ref` is a path item all the same (OpenAPI 3.x §4.8.9), so Portico lists its operations; the corpus tests
 * expect `operation_count` plus these.
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** Count of operations reached through local path-item `$ref`s of the file's `paths`. */
export function operationsBehindLocalPathItemRefs(file: string): number {
  let data: { paths?: Record<string, { $ref?: unknown }> };
  try {
    data = parseYaml(readFileSync(file, "utf8"), { maxAliasCount: -1, uniqueKeys: false, strict: false });
  } catch {
    return 0;
  }
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
