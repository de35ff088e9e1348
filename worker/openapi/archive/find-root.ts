/**
 * @module Which file of an archive is the definition's root: the one named by `?root=`, else the single
 * shallowest JSON/YAML file with a top-level `openapi` or `swagger` key. The search is bounded (issue 14: a
 * small archive can hold thousands of candidate roots, or several huge ones): candidates are examined depth by
 * depth, shallowest first, the search stops as soon as two candidates at one depth are confirmed, and at most
 * {@link ROOT_SEARCH_LIMITS} files and bytes are parsed to confirm them.
 */

import { isStructuredFile } from "../bundle/file-path";

export type RootChoice =
  | { ok: true; path: string }
  | { ok: false; code: "root-not-found" | "ambiguous-root" | "too-many-roots"; message: string; candidates: string[] };

/** Bounds of the automatic root search: files parsed to confirm a candidate, and their total size in bytes. */
export const ROOT_SEARCH_LIMITS = { maxParsed: 16, maxParsedBytes: 32 * 1024 * 1024 };

const ROOT_KEY_YAML = /^["']?(openapi|swagger)["']?[ \t]*:/m;
const ROOT_KEY_JSON = /"(openapi|swagger)"\s*:/;

/**
 * Picks the root. `text(path)` decodes a file (undefined when it is not text); `hasRootKey(path)` confirms a
 * candidate by parsing it. A named root may omit a single top folder every entry shares. Refuses with
 * "too-many-roots" when confirming would take more than {@link ROOT_SEARCH_LIMITS} (name the root then).
 */
export function findRoot(
  paths: readonly string[],
  requested: string | undefined,
  text: (path: string) => string | undefined,
  hasRootKey: (path: string) => boolean,
  limits = ROOT_SEARCH_LIMITS,
): RootChoice {
  const structured = paths.filter(isStructuredFile);
  if (requested !== undefined) {
    const wanted = requested.replace(/\\/g, "/").replace(/^(\.?\/)+/, "");
    const top = commonTopFolder(paths);
    const match = paths.includes(wanted) ? wanted : top && paths.includes(`${top}/${wanted}`) ? `${top}/${wanted}` : undefined;
    if (match) return { ok: true, path: match };
    return { ok: false, code: "root-not-found", message: `root ${JSON.stringify(requested)} is not in the archive`, candidates: structured.slice(0, 20) };
  }
  const depth = (p: string) => p.split("/").length;
  // Shallowest first; within a depth, by name, so the outcome never depends on the archive's entry order.
  const ordered = [...structured].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  let parsed = 0;
  let parsedChars = 0;
  for (let i = 0; i < ordered.length; ) {
    const level = depth(ordered[i]);
    const confirmed: string[] = [];
    let unexamined = false;
    for (; i < ordered.length && depth(ordered[i]) === level; i++) {
      const p = ordered[i];
      if (confirmed.length >= 2) {
        unexamined = true;
        continue;
      }
      const t = text(p);
      if (t === undefined || !(/\.json$/i.test(p) ? ROOT_KEY_JSON : ROOT_KEY_YAML).test(t)) continue;
      if (++parsed > limits.maxParsed || (parsedChars += t.length) > limits.maxParsedBytes) {
        const message = `the archive has too many candidate root files to examine (more than ${limits.maxParsed} files or ${limits.maxParsedBytes} bytes); name the root with ?root=`;
        return { ok: false, code: "too-many-roots", message, candidates: confirmed };
      }
      if (hasRootKey(p)) confirmed.push(p);
    }
    if (confirmed.length === 1) return { ok: true, path: confirmed[0] };
    if (confirmed.length > 1) {
      const more = unexamined ? " and maybe others" : "";
      return { ok: false, code: "ambiguous-root", message: `several files could be the root (${confirmed.join(", ")}${more}); choose one with ?root=`, candidates: confirmed };
    }
  }
  return { ok: false, code: "root-not-found", message: "no file in the archive has a top-level `openapi` or `swagger` key; name the root with ?root=", candidates: [] };
}

function commonTopFolder(paths: readonly string[]): string | undefined {
  const tops = new Set(paths.map((p) => (p.includes("/") ? p.slice(0, p.indexOf("/")) : "")));
  const [only] = tops;
  return tops.size === 1 && only ? only : undefined;
}
