/**
 * @module Document-wide `$ref` check at build time: every local ref must resolve; remote refs are never fetched
 * and relative file refs left after bundling point outside the upload. Each problem carries its path.
 */

import { parseRef } from "./pointer";
import type { RefClosure } from "./ref-closure";
import type { BuildIssue } from "./types";
import { walkRefs } from "./walk-refs";

/**
 * Appends one issue per problematic `$ref` occurrence (the closure memoises resolution for the slices). After
 * bundling, relative refs that remain were already reported by the bundler, so `bundled` skips them. `node` (at
 * `basePath`) checks one part of the document only (the streamed build checks one entry at a time).
 */
export function checkRefs(document: unknown, closure: RefClosure, issues: BuildIssue[], bundled = false, node: unknown = document, basePath: readonly (string | number)[] = []): void {
  walkRefs(node, (ref, at) => {
    const path = [...at, "$ref"];
    const parsed = parseRef(ref);
    if (parsed.kind === "local") {
      if (!closure.target(ref).found) issues.push({ severity: "error", rule: "unresolved-ref", message: `${JSON.stringify(ref)} does not resolve to anything in the definition`, path });
    } else if (parsed.kind === "remote") {
      issues.push({ severity: "warning", rule: "remote-ref", message: `remote $ref not fetched: ${JSON.stringify(ref)} (Portico never fetches remote references)`, path });
    } else if (parsed.kind === "relative") {
      if (bundled) return;
      issues.push({ severity: "error", rule: "unresolved-ref", message: `${JSON.stringify(ref)} points to a file that is not in the upload (upload a .zip or .tar.gz with every file)`, path });
    } else {
      issues.push({ severity: "error", rule: "invalid-ref", message: parsed.reason, path });
    }
  }, basePath, closure.budget);
}
